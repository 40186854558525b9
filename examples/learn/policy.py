"""The learning example's policy: a linear score over hand-made features of (observation, action) pairs.

Each legal action ``a`` of the observation's ``action_mask`` gets a feature vector ``phi(obs, a)``
(the names are :data:`FEATURES`) and the score ``w . phi``; the policy plays the legal action of
highest score. The features read the observation and the action space's documented layout only
(``env.codec``'s blocks, links and moves; the board's continents and bonuses), never the game
itself: the policy sees what a player may see.

The features are the ones a Risk player weighs: the exact odds of an invasion (``risk.odds``), how
much of a continent is held, whether a capture completes a continent or breaks another's bonus, the
enemy armies next to a territory, whether a territory is on the border; and, for the counted actions
(place, move in, free move), which of the count choices (min, half, all-but-one, all) it is. Each
kind of action has its own features, so the weights also say how each kind compares with the
others (attack, or end the attacks; move armies, or end the turn).

Only NumPy: ``weights.npz`` next to this file holds the trained weights (:func:`load_weights`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from risk.env import AGENT, COUNT_CHOICES, GAME_FIELDS, SEAT_FIELDS, ActionCodec, RiskGymEnv
from risk.maps import Board
from risk.odds import invasion

WEIGHTS = Path(__file__).with_name("weights.npz")

# One feature vector per legal action; each kind of action fills its own entries (the rest are 0).
FEATURES: tuple[str, ...] = (
    # claiming a territory (games that deal no territories)
    "claim",
    "claim_continent_held",  # share of the territory's continent already mine
    "claim_my_neighbours",  # share of its neighbours that are mine
    # placing armies (setup, reinforcements)
    "place_border",  # the territory touches a territory not mine
    "place_threat",  # enemy armies next to it less its own (÷10, clipped to ±3)
    "place_continent_held",
    "place_best_odds",  # the best invasion odds from it once the pending armies are there
    "place_min",
    "place_half",
    "place_all_but_one",
    "place_all",
    # trading a set of cards
    "trade",
    # attacking
    "attack",
    "attack_odds",  # the exact odds of conquering the target with every army that may fight
    "attack_odds_above_half",  # max(0, odds - 0.5)
    "attack_margin",  # (attacking armies - defenders) ÷ 10, clipped to ±3
    "attack_enemy",  # the target is an opponent's (not a neutral's)
    "attack_continent_held",  # share of the target's continent already mine
    "attack_completes",  # the capture completes a continent (× its bonus ÷ 5)
    "attack_breaks",  # the target's continent is all one other seat's (× its bonus ÷ 5)
    "attack_no_card_yet",  # nothing conquered this turn yet (a conquest earns a card)
    "attack_finishing",  # 1 ÷ the territories of the target's owner (eliminations)
    "attack_dice",  # dice ÷ 3
    "end_attack",
    "end_attack_conquered",  # ending the attacks after a conquest this turn
    # defending (the defender's dice)
    "defend_dice",  # dice ÷ 2
    # moving in after a conquest
    "occupy_min",
    "occupy_half",
    "occupy_all_but_one",
    "occupy_all",
    "occupy_all_source_safe",  # moving all in when the source has no other enemy neighbour
    "occupy_all_target_front",  # moving all in when the target touches territories not mine
    # the free move
    "fortify",
    "fortify_from_interior",  # the source touches no territory not mine
    "fortify_to_border",  # the target touches a territory not mine
    "fortify_target_threat",  # enemy armies next to the target less its own (÷10, clipped)
    "fortify_source_threat",
    "fortify_min",
    "fortify_half",
    "fortify_all_but_one",
    "fortify_all",
    "end_turn",
    # anything else (other games' actions: missions, capitals, the 1993 experts', allies)
    "other",
)
F = {name: i for i, name in enumerate(FEATURES)}
SIZE = len(FEATURES)

# Action kinds: the blocks of the action space this policy tells apart.
CLAIM, PLACE, TRADE, ATTACK, DEFEND, OCCUPY, END_ATTACK, FORTIFY, END_TURN, OTHER = range(10)
_KIND_OF_BLOCK = {
    "claim": CLAIM,
    "place": PLACE,
    "trade": TRADE,
    "attack": ATTACK,
    "defend": DEFEND,
    "occupy": OCCUPY,
    "endattack": END_ATTACK,
    "fortify": FORTIFY,
    "endturn": END_TURN,
}
ODDS_CAP = 40  # invasion odds beyond 40 armies a side: those of 40 (a table of 41 × 41)
_SEAT = {name: i for i, name in enumerate(SEAT_FIELDS)}
_GAME = {name: i for i, name in enumerate(GAME_FIELDS)}


def odds_table(cap: int = ODDS_CAP) -> np.ndarray:
    """``table[a, d]``: the odds that ``a`` fighting armies conquer a territory of ``d`` (risk.odds)."""
    table = np.zeros((cap + 1, cap + 1))
    for attackers in range(1, cap + 1):
        for defenders in range(1, cap + 1):
            table[attackers, defenders] = invasion(attackers, defenders).attacker_wins
    return table


class Policy:
    """A linear scoring policy for one action space (``codec``) on one board.

    ``act(observation)`` returns the legal index of highest score (ties to the lowest index, or at
    random when ``rng`` is given); ``features(observation)`` returns the legal indices and their
    feature matrix (one row per index).
    """

    def __init__(self, codec: ActionCodec, board: Board, weights: np.ndarray | None = None) -> None:
        self.weights = np.zeros(SIZE) if weights is None else np.asarray(weights, dtype=float)
        if self.weights.shape != (SIZE,):
            raise ValueError(f"the policy has {SIZE} weights, not {self.weights.shape}")
        t = codec.territories
        k = len(COUNT_CHOICES)
        # Per index of the action space: its kind, source and target territories, count choice, dice.
        self.kind = np.full(codec.size, OTHER, dtype=np.int8)
        self.source = np.zeros(codec.size, dtype=np.int64)
        self.target = np.zeros(codec.size, dtype=np.int64)
        self.choice = np.zeros(codec.size, dtype=np.int64)
        self.dice = np.zeros(codec.size, dtype=np.int64)
        for block in codec.blocks.values():
            span = slice(block.start, block.start + block.size)
            offsets = np.arange(block.size)
            self.kind[span] = _KIND_OF_BLOCK.get(block.name, OTHER)
            if block.name == "claim":
                self.target[span] = offsets
            elif block.name == "place":
                self.target[span], self.choice[span] = offsets // k, offsets % k
            elif block.name == "attack":
                edges = np.array(codec.edges, dtype=np.int64).reshape(-1, 2)
                self.source[span] = edges[offsets // 3, 0]
                self.target[span] = edges[offsets // 3, 1]
                self.dice[span] = offsets % 3 + 1
            elif block.name == "defend":
                self.dice[span] = offsets + 1
            elif block.name == "occupy":
                self.choice[span] = offsets
            elif block.name == "fortify":
                moves = np.array(codec.moves, dtype=np.int64).reshape(-1, 2)
                self.source[span] = moves[offsets // k, 0]
                self.target[span] = moves[offsets // k, 1]
                self.choice[span] = offsets % k
        self.adjacent = np.zeros((t, t), dtype=bool)
        for a, b in codec.edges:
            self.adjacent[a, b] = True
        self.continent_of = np.array([board.territories[i].continent for i in range(t)], dtype=np.int64)
        self.continent_size = np.bincount(self.continent_of, minlength=len(board.continents)).astype(float)
        self.bonus = np.array([c.bonus for c in board.continents], dtype=float)
        self.odds = odds_table()

    # -- features ---------------------------------------------------------------------------------
    def features(self, observation: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """The legal indices of ``observation`` and their features (``len(indices) × SIZE``)."""
        legal = np.flatnonzero(observation["action_mask"])
        phi = np.zeros((len(legal), SIZE))
        if len(legal) == 0:
            return legal, phi
        owner = observation["owner"]
        armies = observation["armies"].astype(float)
        seats, game = observation["seats"], observation["game"]
        mine = owner == 0
        seat_count = len(seats)
        known = owner < seat_count
        neutral_seat = np.append(seats[:, _SEAT["neutral"]] == 1, [False, False])
        opponent = known & ~mine & ~neutral_seat[np.minimum(owner, seat_count + 1)]
        others = ~mine
        adjacent = self.adjacent
        enemy_next = adjacent @ (armies * opponent)  # the opponents' armies next to each territory
        border = (adjacent & others[None, :]).any(axis=1)
        threat = np.clip((enemy_next - armies) / 10, -3, 3)
        continents = len(self.bonus)
        held = np.bincount(self.continent_of, weights=mine.astype(float), minlength=continents)
        held_share = held / self.continent_size
        # A continent all of one other seat's: its owner's bonus (0 where none).
        owned_by_other = np.zeros(continents)
        for c in range(continents):
            holders = owner[self.continent_of == c]
            if holders[0] != 0 and holders[0] < seat_count and (holders == holders[0]).all():
                owned_by_other[c] = 1
        territories_of = np.bincount(np.minimum(owner, seat_count), minlength=seat_count + 1).astype(float)
        kind = self.kind[legal]
        source, target, choice = self.source[legal], self.target[legal], self.choice[legal]
        cap = ODDS_CAP

        rows = np.flatnonzero(kind == CLAIM)
        if len(rows):
            t = target[rows]
            phi[rows, F["claim"]] = 1
            phi[rows, F["claim_continent_held"]] = held_share[self.continent_of[t]]
            degree = adjacent[t].sum(axis=1)
            phi[rows, F["claim_my_neighbours"]] = (adjacent[t] & mine[None, :]).sum(axis=1) / degree

        rows = np.flatnonzero(kind == PLACE)
        if len(rows):
            t = target[rows]
            pending = max(int(game[_GAME["pending"]]), 1)
            fighting = np.clip(armies + pending - 1, 0, cap).astype(np.int64)
            defenders = np.clip(armies, 1, cap).astype(np.int64)
            odds = self.odds[fighting[:, None], defenders[None, :]] * (adjacent & others[None, :])
            phi[rows, F["place_border"]] = border[t]
            phi[rows, F["place_threat"]] = threat[t]
            phi[rows, F["place_continent_held"]] = held_share[self.continent_of[t]]
            phi[rows, F["place_best_odds"]] = odds.max(axis=1)[t]
            phi[rows, F["place_min"] + choice[rows]] = 1

        phi[kind == TRADE, F["trade"]] = 1

        rows = np.flatnonzero(kind == ATTACK)
        if len(rows):
            s, t = source[rows], target[rows]
            fighting = np.clip(armies[s] - 1, 0, cap).astype(np.int64)
            odds = self.odds[fighting, np.clip(armies[t], 1, cap).astype(np.int64)]
            c = self.continent_of[t]
            phi[rows, F["attack"]] = 1
            phi[rows, F["attack_odds"]] = odds
            phi[rows, F["attack_odds_above_half"]] = np.maximum(0, odds - 0.5)
            phi[rows, F["attack_margin"]] = np.clip((armies[s] - 1 - armies[t]) / 10, -3, 3)
            phi[rows, F["attack_enemy"]] = opponent[t]
            phi[rows, F["attack_continent_held"]] = held_share[c]
            phi[rows, F["attack_completes"]] = (held[c] == self.continent_size[c] - 1) * self.bonus[c] / 5
            phi[rows, F["attack_breaks"]] = owned_by_other[c] * self.bonus[c] / 5
            phi[rows, F["attack_no_card_yet"]] = game[_GAME["conquered_this_turn"]] == 0
            held_by_target_owner = territories_of[np.minimum(owner[t], seat_count)]
            phi[rows, F["attack_finishing"]] = 1 / np.maximum(held_by_target_owner, 1)
            phi[rows, F["attack_dice"]] = self.dice[legal][rows] / 3

        rows = np.flatnonzero(kind == END_ATTACK)
        phi[rows, F["end_attack"]] = 1
        phi[rows, F["end_attack_conquered"]] = game[_GAME["conquered_this_turn"]] > 0

        phi[kind == DEFEND, F["defend_dice"]] = self.dice[legal][kind == DEFEND] / 2

        rows = np.flatnonzero(kind == OCCUPY)
        if len(rows):
            battle = observation["battle"]
            s, t = int(battle[3]), int(battle[4])  # occupy_source, occupy_target
            all_in = choice[rows] == len(COUNT_CHOICES) - 1
            phi[rows, F["occupy_min"] + choice[rows]] = 1
            if s < len(owner) and t < len(owner):
                others_of_source = others & (np.arange(len(owner)) != t)
                source_safe = not (adjacent[s] & others_of_source).any()
                phi[rows, F["occupy_all_source_safe"]] = all_in * source_safe
                phi[rows, F["occupy_all_target_front"]] = all_in * (adjacent[t] & others).any()

        rows = np.flatnonzero(kind == FORTIFY)
        if len(rows):
            s, t = source[rows], target[rows]
            phi[rows, F["fortify"]] = 1
            phi[rows, F["fortify_from_interior"]] = ~border[s]
            phi[rows, F["fortify_to_border"]] = border[t]
            phi[rows, F["fortify_target_threat"]] = threat[t]
            phi[rows, F["fortify_source_threat"]] = threat[s]
            phi[rows, F["fortify_min"] + choice[rows]] = 1

        phi[kind == END_TURN, F["end_turn"]] = 1
        phi[kind == OTHER, F["other"]] = 1
        return legal, phi

    # -- acting -----------------------------------------------------------------------------------
    def act(self, observation: dict[str, Any], rng: np.random.Generator | None = None) -> int:
        """The legal action of highest score (ties broken at random with ``rng``, else the first)."""
        legal, phi = self.features(observation)
        if len(legal) == 0:
            raise ValueError("no legal action: it is not this agent's turn to act")
        scores = phi @ self.weights
        if rng is not None:
            scores = scores + rng.uniform(0, 1e-6, len(scores))
        return int(legal[int(np.argmax(scores))])


def save_weights(weights: np.ndarray, path: Path = WEIGHTS, **meta: Any) -> None:
    """Write the weights (by feature name, so a reader can check them) and a few facts about the run."""
    np.savez(path, weights=np.asarray(weights, dtype=np.float32), features=np.array(FEATURES), **meta)


def load_weights(path: Path = WEIGHTS) -> np.ndarray:
    """The weights of ``path``, checked against :data:`FEATURES` (a file of other features is refused)."""
    with np.load(path) as data:
        names = tuple(str(name) for name in data["features"])
        if names != FEATURES:
            raise ValueError(f"{path} was trained on other features ({len(names)}, not this policy's {SIZE})")
        return np.asarray(data["weights"], dtype=float)


# -- the game the example learns: 2-player RISK (2008 rules, a passive neutral), one seat against a bot --
EDITION = "2008"
GAME = "two-player"


@dataclass(frozen=True)
class Result:
    """How one game went for the learning seat: won (a game stopped by the turn cap is not a win),
    capped, its steps (the agent's actions), its last turn, and the share of the board it held."""

    won: bool
    capped: bool
    steps: int
    turns: int
    share: float


def make_env(opponent: str, max_turns: int) -> RiskGymEnv:
    """The Gymnasium environment of the example: the learning seat first, ``opponent`` (a bot) second."""
    return RiskGymEnv(EDITION, GAME, [AGENT, opponent], max_turns=max_turns)


def play_game(env: RiskGymEnv, policy: Policy, seed: int, rng: np.random.Generator | None = None) -> Result:
    """One game of ``policy`` from ``reset(seed=seed)`` to its end or the turn cap."""
    observation, _ = env.reset(seed=seed)
    steps, reward, truncated, done = 0, 0.0, False, False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(policy.act(observation, rng))
        steps += 1
        done = terminated or truncated
    return Result(
        won=reward > 0,
        capped=truncated,
        steps=steps,
        turns=int(observation["game"][_GAME["turn"]]),
        share=float(np.mean(observation["owner"] == 0)),
    )


_players: dict[tuple[str, int], tuple[RiskGymEnv, Policy]] = {}  # one per opponent and turn cap, per process


def play_weights(task: tuple[np.ndarray, str, int, int]) -> Result:
    """One game of the policy of ``weights`` against ``opponent``: ``task`` is (weights, opponent,
    max_turns, seed); ties between actions broken at random (from the seed), so all-zero weights
    play uniformly at random. The environment is made once per process (for pools of workers)."""
    weights, opponent, max_turns, seed = task
    key = (opponent, max_turns)
    if key not in _players:
        env = make_env(opponent, max_turns)
        _players[key] = (env, Policy(env.aec.codec, env.aec.board))
    env, policy = _players[key]
    policy.weights = np.asarray(weights, dtype=float)
    return play_game(env, policy, seed, np.random.default_rng(seed))
