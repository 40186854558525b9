"""risk: the RISK world-conquest board game as a Python library.

>>> import risk
>>> game = risk.Game(risk.Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=7)
>>> game.phase.name
'CLAIM'
>>> game.apply("claim alaska")
>>> game.board.name_of(game.owner.index(game.first_player))
'Alaska'
>>> game.apply("claim alaska")
Traceback (most recent call last):
...
risk.errors.IllegalActionError: 'claim alaska': Alaska is already claimed (... to act, phase claim)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# First: risk.build chooses the build (compiled or pure Python) before any module of it loads.
import risk.build  # noqa: F401
from risk.errors import GameOverError, IllegalActionError, NotationError, RecordError, RiskError, RulesError

if TYPE_CHECKING:
    from risk.maps import Board, load_map
    from risk.record import read_record, write_record
    from risk.rules.actions import (
        Action,
        Attack,
        Claim,
        Defend,
        EndAttack,
        EndTurn,
        Fortify,
        Occupy,
        Place,
        Trade,
        parse_action,
    )
    from risk.rules.game import Battle, Game, Outcome, Phase
    from risk.rules.options import Rules
    from risk.view import View

# The other public names and their modules, imported on first use: a program (or a `risk`
# command) that needs part of the package does not wait for all of it to load.
_LAZY_NAMES = {
    **dict.fromkeys(("Board", "load_map"), "risk.maps"),
    **dict.fromkeys(("read_record", "write_record"), "risk.record"),
    **dict.fromkeys(
        (
            "Action",
            "Attack",
            "Claim",
            "Defend",
            "EndAttack",
            "EndTurn",
            "Fortify",
            "Occupy",
            "Place",
            "Trade",
            "parse_action",
        ),
        "risk.rules.actions",
    ),
    **dict.fromkeys(("Battle", "Game", "Outcome", "Phase"), "risk.rules.game"),
    "Rules": "risk.rules.options",
    "View": "risk.view",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY_NAMES:
        raise AttributeError(f"module 'risk' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    if getattr(value, "__doc__", None) == "mypyc filler docstring":
        value.__doc__ = _source_docstring(value)
    globals()[name] = value  # found directly from now on
    return value


def _source_docstring(cls: Any) -> str | None:
    """The docstring of a class the compiled build makes at run time (a NamedTuple, an Enum), which
    mypyc gives a filler: read from its source (tools/build_compiled.py gives the others theirs)."""
    import ast

    from risk.build import _module_source

    tree = ast.parse(_module_source(cls.__module__).read_text(encoding="utf-8"))
    found = (node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls.__name__)
    node = next(found, None)
    return None if node is None else ast.get_docstring(node)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_NAMES})


__all__ = [
    "Action",
    "Attack",
    "Battle",
    "Board",
    "Claim",
    "Defend",
    "EndAttack",
    "EndTurn",
    "Fortify",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "NotationError",
    "Occupy",
    "Outcome",
    "Phase",
    "Place",
    "RecordError",
    "RiskError",
    "Rules",
    "RulesError",
    "Trade",
    "View",
    "load_map",
    "parse_action",
    "read_record",
    "write_record",
]
