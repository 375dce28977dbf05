"""An open table and the open tables of this process: the game, its computer players and
their thinking processes, its sockets and what each seat sees, and what a table for friends
adds (the party and its lobby, the stand-in, the chat, the spectators).

:mod:`.tables` holds the open tables; :mod:`.table` is one of them, made of
:mod:`.view`, :mod:`.bots`, :mod:`.sockets` and :mod:`.friends`.
"""
