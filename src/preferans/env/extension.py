"""The environment's C extension (``preferans.env._vector``, built from ``vector_c/`` by
``make build``), checked once: :data:`VECTOR` is the module, or ``None`` when it is not
built or older than the package's Python (an extension built before its source grew a name
the Python needs). Either way the environment still works, on the Python engine, at a
fraction of the speed; a :class:`RuntimeWarning` says so and how to build it.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Final

NEEDED: Final = ("Batch", "Deal", "Deal.observe", "Deal.observe_info", "float_list",
                 "NUM_ACTIONS", "OBSERVATION_SIZE", "RULES")
"""What the Python side uses of the extension (``Type.method`` for a type's method)."""

HOW: Final = "run `make build` (or `pip install -e .`) in the source tree to build it"


def load() -> ModuleType | None:
    """The extension with every name in :data:`NEEDED`, else ``None`` (with a warning)."""
    try:
        from . import _vector
    except ImportError as error:
        warnings.warn(f"preferans: the environment's C extension is not built ({error}); the "
                      f"OpenSpiel game, PettingZoo and VectorEnv run on the Python engine, "
                      f"several times slower; {HOW}", RuntimeWarning, stacklevel=2)
        return None
    missing = [name for name in NEEDED if not _has(_vector, name)]
    if missing:
        warnings.warn(f"preferans: the environment's C extension is older than its source "
                      f"(it lacks {', '.join(missing)}); the OpenSpiel game, PettingZoo and "
                      f"VectorEnv run on the Python engine, several times slower; {HOW}",
                      RuntimeWarning, stacklevel=2)
        return None
    return _vector


def _has(module: ModuleType, dotted: str) -> bool:
    owner: object = module
    for part in dotted.split("."):
        if not hasattr(owner, part):
            return False
        owner = getattr(owner, part)
    return True


VECTOR: Final = load()
