"""The network's edge: which hosts, pages and proxies the server believes (:mod:`.guard`),
how large a request's body may be (:mod:`.bodies`), how many connections and how slow a
client may hold (:mod:`.connections`), how much a client may ask of it (:mod:`.limits`),
the seat tokens it mints (:mod:`.tokens`), names that only look alike (:mod:`.lookalike`)
and the public address friends use, with the links made at it (:mod:`.links`).
"""
