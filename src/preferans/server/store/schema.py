"""The database's tables (SQLAlchemy Core): the games, the leases of the tables when
several processes share the database, and the server's kept keys."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

PLAYING = "playing"


FINISHED = "finished"


LOBBY = "lobby"
"""A friends' table whose creator has not started the game yet."""


metadata = MetaData()


games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
    Column("difficulty", String(16), nullable=False, index=True),
    Column("rules", JSON, nullable=False),
    Column("names", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("record", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("result", JSON, nullable=True),
    Column("summary", JSON, nullable=True),
    Column("seats", JSON, nullable=True),
    Column("seed_text", String(64), nullable=True),
    Column("friends", JSON, nullable=True),
    Column("epoch", BigInteger, nullable=True),
    Column("chat", JSON, nullable=True),
)
"""The games table: one row per game, rewritten after every action.  ``seats`` (added
later: an older database gets the column on opening) maps a human seat ("0") to the
sha256 of the token of the browser that holds it.  ``seed_text`` (added later) holds a seed
too large for the ``seed`` column (the server's seeds have 128 bits), which then holds its
low 63 bits.  ``epoch`` (added later) is the fencing number of the table's current owner
when several server processes share the database (:class:`Lease`); NULL for a game only
ever played by one process.  ``chat`` (added later) holds the last messages of a table for
friends' chat (:mod:`..table.chat`: bounded), never part of the record."""


table_leases = Table(
    "table_leases",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("renewals", BigInteger, nullable=False, default=0),
)
"""Which server process owns each open table when several share the database: its
``owner`` (a process's name), the ``epoch`` (raised at every change of owner and copied
into the game's row, where every save of the owner is checked against it: fencing) and
when the lease ends (``expires_ms``, milliseconds since 1970 UTC) unless renewed."""


server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
)
"""Secrets the server keeps across restarts (and shares between its processes): the key that
signs the seat tokens it mints."""


ratings = Table(
    "ratings",
    metadata,
    Column("holder", String(80), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("listed", Boolean, nullable=False, default=False),
    Column("name", String(40), nullable=True),
    Column("updated", DateTime(timezone=True), nullable=False),
)
"""Each rated holder's rating (:mod:`preferans.rating`): a browser's or account's seat-token
hash, or a computer level (``level:hard``).  ``listed``: he chose to be on the ladder, under
``name``."""


rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("holders", Integer, nullable=False),
)
"""The finished games already rated (or found unrated: ``holders`` 0): the key makes the
update happen once, whichever process ends or finds the game first."""


rating_history = Table(
    "rating_history",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("holder", String(80), primary_key=True, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("delta", Float, nullable=False),
)
"""A holder's rating after each rated game (one row per game and holder): the statistics
page's plot.  ``place``: 1 = the best balance; ``delta``: the change of ``mu``."""


puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("holder", String(80), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("tried", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)
"""Each holder's puzzle rating (:mod:`preferans.puzzles.rating`) and how many puzzles he
solved of those he tried: kept with the player, so that it follows him to the account and to
every device he signs in on."""


puzzle_tries = Table(
    "puzzle_tries",
    metadata,
    Column("holder", String(80), primary_key=True),
    Column("puzzle_id", String(16), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("solved", Boolean, nullable=False),
)
"""The puzzles a holder has tried (the first try rates; another try at the same puzzle, a
reload, does not)."""


SEED_COLUMN = 2**63
"""Seeds below this fit the ``seed`` column; larger ones are kept whole in ``seed_text``."""


SCHEMA_LOCK = 0x7072656665720001
"""The PostgreSQL advisory lock held while a process prepares the tables
(:meth:`GameStore._prepare`)."""


accounts = Table(
    "accounts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("handle", String(100), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    Column("language", String(8), nullable=False),
    Column("address", String(8), nullable=True),
    Column("generation", BigInteger, nullable=False),
    Column("token_hash", String(64), nullable=False, index=True),
    Column("created_ms", BigInteger, nullable=False),
)
"""The players' accounts (optional: play needs none; :mod:`.accounts`).  ``handle`` is the
WebAuthn user handle (random, base64url); ``token_hash`` the sha256 of the seat token the
account owns now (its identity in the games' ``seats``), minted from ``generation``, which
"sign out everywhere" raises (the old token then holds nothing).  No name is unique and
nothing is looked up by name."""


account_credentials = Table(
    "account_credentials",
    metadata,
    Column("id", String(400), primary_key=True),
    Column("account_id", String(40), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("used_ms", BigInteger, nullable=True),
)
"""An account's passkeys: the credential id (base64url), its public key (COSE, base64url)
and the authenticator's last signature counter (a replayed assertion does not raise it)."""


account_sessions = Table(
    "account_sessions",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("account_id", String(40), nullable=False, index=True),
    Column("generation", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)
"""The signed-in browsers: the sha256 of each session cookie (never the cookie), the
account and its generation when the session began (a session of an older generation is
over), and when it ends."""


account_once = Table(
    "account_once",
    metadata,
    Column("hash", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("account_id", String(40), nullable=True, index=True),
    Column("data", Text, nullable=True),
    Column("expires_ms", BigInteger, nullable=False, index=True),
)
"""What works once and briefly, minted by the server and kept only as its sha256: the
WebAuthn challenges (``register``, ``signin``, ``device``) and the one-time codes that add a
device (``code``); taken (deleted) by its first use."""
