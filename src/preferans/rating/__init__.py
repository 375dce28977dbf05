"""One rating for people and computer levels: OpenSkill (Plackett-Luce) over whole games.

- :mod:`.model`: the rating, its update and how it is shown (``mu ± 2·sigma``);
- :mod:`.games`: which seats of a finished game are rated, and for whom (pure);
- :mod:`.seed`: the computer levels' seed ratings from duplicate pulya games.

The server keeps the ratings in its store (:mod:`preferans.server.store.ratings`); this
package does no I/O but read its seed file.
"""

from .games import RatedSeat, rated_seats
from .model import Rating, rate_seats
from .seed import level_holder, load_seed

__all__ = ["RatedSeat", "Rating", "level_holder", "load_seed", "rate_seats", "rated_seats"]
