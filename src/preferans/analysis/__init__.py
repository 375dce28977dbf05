"""After the game: every card and every call weighed against double-dummy play.

- :mod:`.after_deal`: one deal's contract value and every card's cost (``preferans analyse``);
  its names are this package's (``from preferans.analysis import analyse, render``).
- :mod:`.review`: a finished game laid out frame by frame for the replay viewer.
- :mod:`.call_review`: a seat's calls set beside what Crazy would have chosen.
- :mod:`.attribution`: what each decision of a match cost (``preferans attribute``).
- :mod:`.ddgap`: the gap between double-dummy and real play, from game records.
"""

from __future__ import annotations

from .after_deal import FORMAT, analyse, render

__all__ = ["FORMAT", "analyse", "render"]
