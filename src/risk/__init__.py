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

from risk.errors import GameOverError, IllegalActionError, NotationError, RecordError, RiskError, RulesError
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

__all__ = [
    "Action", "Attack", "Battle", "Board", "Claim", "Defend", "EndAttack", "EndTurn", "Fortify", "Game",
    "GameOverError", "IllegalActionError", "NotationError", "Occupy", "Outcome", "Phase", "Place",
    "RecordError", "RiskError", "Rules", "RulesError", "Trade", "View", "load_map", "parse_action",
    "read_record", "write_record",
]
