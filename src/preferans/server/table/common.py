"""What the parts of a table share: the failed save, a deal's phase by name."""

from __future__ import annotations

from typing import Any


class SaveFailed(Exception):
    """A save failed: the table was put back to its last saved state and every socket was
    told (the ``save_failed`` error)."""


def _phase_name(deal: Any) -> str:
    phase = getattr(deal, "phase", None)
    # an enum member's ``_name_`` is a plain attribute (``.name`` goes through a slow
    # descriptor, and this runs several times per action)
    return getattr(phase, "_name_", None) or getattr(phase, "name", str(phase))
