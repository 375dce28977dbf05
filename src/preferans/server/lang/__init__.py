"""The server's words: the language of a request or a socket and the texts in it
(:mod:`.language`), refusals (:mod:`.request_errors`), the rules as a player reads them
(:mod:`.house_rules`, :mod:`.presets_text`, :mod:`.rules_brief`) and the sheet's summaries.
"""
