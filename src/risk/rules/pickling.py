"""Pickling and copying the frozen dataclasses of the compiled build (docs/compiled.md).

mypyc's own pickling of a compiled class sets each field after making a blank object, which a frozen
dataclass refuses (and a hand-written ``__init__`` cannot make a blank one): ``picklable`` registers
these classes with :mod:`copyreg` to be rebuilt through their constructor from their fields, as pickle,
``copy.copy`` and ``copy.deepcopy`` then do in both builds. Never compiled itself.
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any


def _by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, field.name) for field in dataclasses.fields(value))


def picklable(*classes: type) -> None:
    """Pickle and copy each of ``classes`` (frozen dataclasses whose ``__init__`` takes every field)."""
    for cls in classes:
        copyreg.pickle(cls, _by_fields)
