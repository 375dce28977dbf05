"""The network's edge: which hosts and pages the server answers (:mod:`.guard`), how much a
client may ask of it (:mod:`.limits`), and the seat tokens it mints (:mod:`.tokens`).
"""
