"""The flat observation: one ``float32`` vector in ``[0, 1]`` made from the dict observation.

For learners that want one bounded vector (an MLP policy, PettingZoo's classic layout): every field
of :mod:`risk.env.observation` but the fixed ones (continents, links), each made bounded:

- seats and territories named by number become one-hot columns (a territory's holder among the
  relative seats, unclaimed and tied; the phase; whose turn; the battle's territories);
- counts are squashed as ``x / (x + k)`` (0 for none, half at ``k``, towards 1 for many): armies
  ``k = 5`` on a territory and ``30`` for a seat, cards ``3``, armies to place ``5``, turns ``10``;
- flags stay 0 or 1; the turn is also given as a share of the turn cap.

:attr:`FlatEncoder.parts` names each part and its length, in order (docs/research.md prints the
classic board's). The encoding reads the dict observation only, so it shows exactly what the View
shows.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
from gymnasium import spaces

from risk.env.observation import BATTLE_FIELDS, GAME_FIELDS, SEAT_FIELDS, Array, Observer
from risk.rules.game import Phase

# k of x / (x + k) for each count
TERRITORY_ARMIES: Final = 5.0
SEAT_ARMIES: Final = 30.0
SEAT_TERRITORIES: Final = 10.0
CARDS: Final = 3.0
TO_PLACE: Final = 5.0
TURNS: Final = 10.0
SETS: Final = 4.0
SET_VALUE: Final = 10.0
_SEAT = {name: i for i, name in enumerate(SEAT_FIELDS)}
_GAME = {name: i for i, name in enumerate(GAME_FIELDS)}
_BATTLE = {name: i for i, name in enumerate(BATTLE_FIELDS)}
_PLACES = ("attack_source", "attack_target", "occupy_source", "occupy_target", "last_source", "last_target")
_DICE = (
    "roll_attacker_1",
    "roll_attacker_2",
    "roll_attacker_3",
    "roll_defender_1",
    "roll_defender_2",
    "last_attacker_1",
    "last_attacker_2",
    "last_attacker_3",
    "last_defender_1",
    "last_defender_2",
)
_PLACE_COLUMNS: Final = [_BATTLE[name] for name in _PLACES]
_DICE_COLUMNS: Final = [_BATTLE[name] for name in _DICE]
_FLAGS = ("placed_this_turn", "traded_this_turn", "conquered_this_turn", "attacked_this_turn", "must_trade")
_FLAG_COLUMNS: Final = [_GAME[name] for name in _FLAGS]


def _squash(values: Array, k: float) -> Array:
    values = values.astype(np.float32)
    return values / (values + np.float32(k))


class FlatEncoder:
    """Turns the dict observations of one :class:`~risk.env.observation.Observer` into flat vectors."""

    def __init__(self, observer: Observer, max_turns: int) -> None:
        t, p = observer.territories, observer.seats
        self.territories, self.seats, self.max_turns = t, p, max_turns
        mission_space, mission_cards_space = observer.space["mission"], observer.space["mission_cards"]
        assert isinstance(mission_space, spaces.Box) and isinstance(mission_cards_space, spaces.Box)
        missions = int(mission_space.high[0]) + 1  # secret_mission_names(p, board)
        mission_cards = mission_cards_space.shape
        self._owner_codes = np.eye(p + 2, dtype=np.float32)  # relative seats, unclaimed, tied
        self._seat_codes = np.eye(p, dtype=np.float32)
        self._phase_codes = np.eye(len(Phase), dtype=np.float32)
        self._place_codes = np.eye(t + 1, dtype=np.float32)  # territories and "none"
        self._mission_codes = np.eye(missions, dtype=np.float32)
        self.parts: tuple[tuple[str, int], ...] = (
            ("owner", t * (p + 2)),
            ("armies", t),
            ("visible", t),
            ("seen_age", t),
            ("units", t * p),
            ("hand", observer.cards),
            ("discard", observer.cards),
            ("seats", p * 9),
            ("phase", len(Phase)),
            ("turn", 2),
            ("current", p),
            ("to_act", p),
            ("placing_for", p),
            ("counts", 5),
            ("flags", len(_FLAGS)),
            ("battle_places", len(_PLACES) * (t + 1)),
            ("battle_counts", 4),
            ("dice", len(_DICE)),
            ("results", 4),
            ("mission", missions),
            ("mission_cards", math.prod(mission_cards)),
        )
        self.size = sum(size for _, size in self.parts)
        self.space = spaces.Box(0.0, 1.0, (self.size,), np.float32)

    def encode(self, observation: dict[str, Array]) -> Array:
        """The flat vector of one dict observation (its ``action_mask`` is left out)."""
        t = self.territories
        seats = observation["seats"].astype(np.float32)
        game = observation["game"]
        battle = observation["battle"]
        seat_columns = np.stack(
            [
                seats[:, _SEAT["alive"]],
                seats[:, _SEAT["neutral"]],
                seats[:, _SEAT["teammate"]],
                seats[:, _SEAT["territories"]] / (seats[:, _SEAT["territories"]] + SEAT_TERRITORIES),
                seats[:, _SEAT["armies"]] / (seats[:, _SEAT["armies"]] + SEAT_ARMIES),
                seats[:, _SEAT["cards"]] / (seats[:, _SEAT["cards"]] + CARDS),
                seats[:, _SEAT["setup_armies"]] / (seats[:, _SEAT["setup_armies"]] + SEAT_ARMIES),
                (seats[:, _SEAT["capital"]] < t).astype(np.float32),  # its headquarters is known
                np.minimum(seats[:, _SEAT["hidden_mission_cards"]], 4) / 4,
            ],
            axis=1,
        )
        turn = float(game[_GAME["turn"]])
        counts = np.array(
            [
                game[_GAME["pending"]],
                game[_GAME["sets_traded"]],
                game[_GAME["next_set_value"]],
                game[_GAME["conquests_this_turn"]],
                game[_GAME["deck_size"]],
            ],
            dtype=np.float32,
        )
        counts /= counts + np.array([TO_PLACE, SETS, SET_VALUE, 1.0, 10.0], dtype=np.float32)
        places = np.minimum(battle[_PLACE_COLUMNS], t)  # T and past: none
        battle_counts = np.array(
            [
                battle[_BATTLE["attack_dice"]] / 3,
                battle[_BATTLE["occupy_min"]] / (battle[_BATTLE["occupy_min"]] + TO_PLACE),
                battle[_BATTLE["occupy_max"]] / (battle[_BATTLE["occupy_max"]] + TO_PLACE),
                battle[_BATTLE["roll_rerolled"]] > 0,
            ],
            dtype=np.float32,
        )
        results = np.array(
            [
                battle[_BATTLE["last_attacker_losses"]] / 3,
                battle[_BATTLE["last_defender_losses"]] / 3,
                battle[_BATTLE["last_conquered"]] > 0,
                game[_GAME["open_invasion"]] < t,
            ],
            dtype=np.float32,
        )
        flat = np.concatenate(
            [
                self._owner_codes[observation["owner"]].ravel(),
                _squash(observation["armies"], TERRITORY_ARMIES),
                observation["visible"].astype(np.float32),
                _squash(observation["seen_age"], 1.0),
                _squash(observation["units"], TERRITORY_ARMIES).ravel(),
                observation["hand"].astype(np.float32),
                observation["discard"].astype(np.float32),
                seat_columns.ravel(),
                self._phase_codes[game[_GAME["phase"]]],
                np.array([turn / (turn + TURNS), min(turn / self.max_turns, 1.0)], dtype=np.float32),
                self._seat_codes[game[_GAME["current"]]],
                self._seat_codes[game[_GAME["to_act"]]],
                self._seat_codes[game[_GAME["placing_for"]]],
                counts,
                (game[_FLAG_COLUMNS] > 0).astype(np.float32),
                self._place_codes[places].ravel(),
                battle_counts,
                battle[_DICE_COLUMNS].astype(np.float32) / 6,
                results,
                self._mission_codes[observation["mission"][0]],
                observation["mission_cards"].astype(np.float32).ravel() / 2,
            ]
        )
        return flat
