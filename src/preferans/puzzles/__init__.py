"""Puzzles: positions where exactly one card keeps what matters, checked by the solver.

- :mod:`.goal`: what matters under the rules (make, defeat, the quota, a misère clean or
  caught, the fewest all-pass tricks);
- :mod:`.cardplay`: legal cards, equivalent cards and trick facts on solver positions;
- :mod:`.obvious`: the card a player who looks only at his hand and the trick would play;
- :mod:`.judge`: whether a position is a puzzle, and its solution line;
- :mod:`.themes`, :mod:`.grade`: theme tags and the difficulty grade;
- :mod:`.puzzle`: the ``preferans-puzzle/1`` object, its id and repeat key;
- :mod:`.candidates`: every card decision of a game record as a candidate;
- :mod:`.generate`: ``preferans puzzles generate`` over record files (workers or Ray);
- :mod:`.verify`: ``preferans puzzles check``, the solver recomputing a puzzle;
- :mod:`.shipped`: the puzzles that come with the package (``preferans/data/puzzles``).
- :mod:`.levels`: which of our computer levels find a puzzle's card (the grades checked);
- :mod:`.render`: a puzzle as text (``preferans puzzles show``);
- :mod:`.session`: a puzzle played card by card, the solver answering (the page);
- :mod:`.rating`: the browser's puzzle rating (OpenSkill).

The format is documented in ``docs/puzzles.md``.
"""

from __future__ import annotations
