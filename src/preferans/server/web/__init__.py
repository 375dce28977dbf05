"""The HTTP and WebSocket routes: one :class:`fastapi.APIRouter` a concern, each route a
plain function that gets what it needs through ``Depends`` (:mod:`.deps`).

:mod:`.pages` (the settings, table, statistics and guide pages), :mod:`.games` (the JSON
API of a game against the computer), :mod:`.sockets` (a table's WebSocket), :mod:`.status`
(health and figures), :mod:`.strings` (the browser's catalogues), :mod:`.friends` (a table
for friends: creating it, the lobby, the invite), :mod:`.seat_links` (a seat on another
device), :mod:`.review` (the after-deal analysis
and the replay viewer); :mod:`.responses` and :mod:`.errors` answer for all of them.
"""
