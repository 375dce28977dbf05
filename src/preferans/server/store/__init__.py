"""Saved games in a SQL database (SQLAlchemy Core): the games, the leases that tell which
process owns a table, the server's keys, and where the database is (:mod:`.config`).

:mod:`.games` is the store; :mod:`.schema` its tables, :mod:`.writer` its writer thread,
:mod:`.leases` the leases, :mod:`.saved` a row as read; :mod:`.stats` the statistics the
rows' summaries add up to.
"""
