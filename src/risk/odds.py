"""Exact battle odds for RISK.

A *roll*: the attacker throws 1-3 dice, the defender 1-2. Both sides sort their dice in
descending order and compare them pairwise, as many pairs as the side with fewer dice threw.
The higher die wins a pair and ties go to the defender; the loser of each pair loses one army.

An *invasion* is a sequence of rolls in which both sides always throw as many dice as they may,
until the defender is wiped out or the attacker gives up. This is the absorbing Markov chain of
Osborne (2003), "Markov Chains for the RISK Board Game Revisited", Mathematics Magazine 76(2),
which corrects Tan (1997): the two pairwise comparisons of one roll are NOT independent.

Convention: ``attackers`` always counts the *fighting* armies, i.e. the armies in the attacking
territory minus the one that must stay behind (as in Osborne's tables). So ``invasion(3, 2)``
describes an attack from a territory holding 4 armies; the attacker throws min(3, a) dice while
it has ``a`` fighting armies, and the defender min(2, d) dice while it has ``d`` armies.

One sweep pushes probability mass through the (a, d) state grid one anti-diagonal
(a + d = constant) at a time: the 3-against-2 states of a diagonal move in one convolution (with
NumPy for long diagonals of floats), the few other states one by one. It runs on floats, or on
Python integers over a common denominator so that ``exact=True`` results are exact ``Fraction``
values.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Generic, Literal, TypeVar, overload

__all__ = [
    "MAX_ATTACKER_DICE",
    "MAX_DEFENDER_DICE",
    "BattleOdds",
    "ChainOdds",
    "chain",
    "clear_cache",
    "invasion",
    "roll_outcomes",
]

MAX_ATTACKER_DICE = 3
MAX_DEFENDER_DICE = 2
DIE_FACES = 6

Probability = TypeVar("Probability", float, Fraction)
# What the sweep computes with: probabilities, or the exact engine's scaled integer numerators.
Number = TypeVar("Number", float, int)

# Every roll removes at least one army and every single-roll probability has a denominator
# dividing 6**4 per army removed (36, 216, 1296 for one army; 1296, 7776 for two). Scaling the
# mass on anti-diagonal a + d = s by SCALE ** (top - s) therefore keeps the exact engine in
# integers: no Fraction arithmetic (and no gcd) in the hot loop.
_SCALE = DIE_FACES**4


# ---------------------------------------------------------------------------------------------
# Single roll
# ---------------------------------------------------------------------------------------------


def _compared_dice(dice: int, compared: int) -> Counter[tuple[int, ...]]:
    """Every throw of ``dice`` dice, counted by its ``compared`` highest dice (highest first)."""
    faces = range(1, DIE_FACES + 1)
    return Counter(
        tuple(sorted(throw, reverse=True)[:compared]) for throw in itertools.product(faces, repeat=dice)
    )


@cache
def _roll_outcome_table(
    attacker_dice: int, defender_dice: int
) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """Count all 6**(a+d) throws once; immutable so the cache cannot be corrupted.

    Only each side's min(a, d) highest dice are compared, so the throws are counted by those
    (21 kinds at most per side) instead of one pair of throws at a time.
    """
    compared = min(attacker_dice, defender_dice)
    defender_kinds = _compared_dice(defender_dice, compared).items()
    counts: Counter[tuple[int, int]] = Counter()
    for attacker_top, attacker_count in _compared_dice(attacker_dice, compared).items():
        for defender_top, defender_count in defender_kinds:
            # Ties go to the defender.
            defender_losses = sum(a > d for a, d in zip(attacker_top, defender_top, strict=True))
            counts[compared - defender_losses, defender_losses] += attacker_count * defender_count
    total = DIE_FACES ** (attacker_dice + defender_dice)
    return tuple((losses, Fraction(count, total)) for losses, count in sorted(counts.items()))


def roll_outcomes(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of one roll.

    Returns a new dict mapping ``(attacker_losses, defender_losses)`` to its probability,
    computed by enumerating every throw of the dice. Raises ``ValueError`` unless
    ``1 <= attacker_dice <= 3`` and ``1 <= defender_dice <= 2``.

    >>> roll_outcomes(1, 1)[0, 1]
    Fraction(5, 12)
    """
    _require_int("attacker_dice", attacker_dice, minimum=1, maximum=MAX_ATTACKER_DICE)
    _require_int("defender_dice", defender_dice, minimum=1, maximum=MAX_DEFENDER_DICE)
    return dict(_roll_outcome_table(attacker_dice, defender_dice))


def _require_int(name: str, value: object, *, minimum: int, maximum: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        allowed = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ValueError(f"{name} must be {allowed}, got {value}")


# ---------------------------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleOdds(Generic[Probability]):
    """Outcome distribution of one invasion.

    All distributions are *joint* (unconditional) probabilities, so
    ``sum(attacker_survivors.values()) == attacker_wins`` and
    ``sum(defender_survivors.values()) == 1 - attacker_wins``. Zero-probability entries are
    omitted.

    Attributes:
        attackers: fighting armies at the start (excluding the one left behind).
        defenders: defending armies at the start.
        stop_at: the attacker calls the invasion off once it has this many fighting armies or fewer.
        attacker_wins: probability that the defender is wiped out.
        attacker_survivors: ``s -> P(attacker conquers with s fighting armies left)``.
        defender_survivors: ``t -> P(invasion fails with t defenders left)``.
        outcomes: ``(attacker_left, defender_left) -> probability`` over all end states; when
            ``stop_at > 0`` this also tells how many fighting armies a failed attacker kept.
        expected_attacker_losses: expected number of attacking armies lost.
        expected_defender_losses: expected number of defending armies lost.
    """

    attackers: int
    defenders: int
    stop_at: int
    attacker_wins: Probability
    attacker_survivors: dict[int, Probability]
    defender_survivors: dict[int, Probability]
    outcomes: dict[tuple[int, int], Probability]
    expected_attacker_losses: Probability
    expected_defender_losses: Probability

    @property
    def defender_wins(self) -> Probability:
        """Probability that the territory holds (``1 - attacker_wins``)."""
        return 1 - self.attacker_wins


@dataclass(frozen=True)
class ChainOdds(Generic[Probability]):
    """Outcome distribution of one stack attacking a path of territories in turn.

    Attributes:
        attackers: fighting armies at the start (excluding the one left in the origin).
        defenders_path: defenders in each territory of the path, in attack order.
        takes_all: probability of conquering every territory of the path.
        at_least: ``at_least[k]`` = P(at least k territories conquered), for k = 0..len(path);
            ``at_least[0] == 1`` and ``at_least[-1] == takes_all``.
        arrived: ``s -> P(every territory taken and s armies end up in the last one)``; sums
            to ``takes_all``.
        expected_conquered: expected number of territories conquered.
    """

    attackers: int
    defenders_path: tuple[int, ...]
    takes_all: Probability
    at_least: tuple[Probability, ...]
    arrived: dict[int, Probability]
    expected_conquered: Probability

    def exactly(self, conquered: int) -> Probability:
        """Probability that exactly ``conquered`` territories are taken."""
        if not 0 <= conquered < len(self.at_least):
            raise ValueError(f"conquered must be between 0 and {len(self.at_least) - 1}, got {conquered}")
        if conquered == len(self.at_least) - 1:
            return self.at_least[conquered]
        return self.at_least[conquered] - self.at_least[conquered + 1]


# ---------------------------------------------------------------------------------------------
# Engines
#
# State (a, d): a fighting attackers, d defenders. Rolls with a >= 2 and d >= 2 remove exactly
# two armies, rolls with a == 1 or d == 1 exactly one, so processing anti-diagonals s = a + d in
# decreasing order visits every state after all of its predecessors. Mass reaching d == 0 is a
# conquest; mass reaching a <= stop_at is a failed invasion.
# ---------------------------------------------------------------------------------------------


Mass = TypeVar("Mass", float, int, Fraction)


@dataclass(frozen=True)
class _Absorbed(Generic[Mass]):
    """Raw engine output: where the probability mass ended up."""

    conquered: tuple[Mass, ...]  # conquered[a] = P(end at (a, 0))
    failed: dict[tuple[int, int], Mass]  # (a, d) with d >= 1 -> P(end there)


def _float_transitions() -> dict[tuple[int, int], dict[tuple[int, int], float]]:
    return {
        (attacker_dice, defender_dice): {
            losses: float(p) for losses, p in _roll_outcome_table(attacker_dice, defender_dice)
        }
        for attacker_dice in range(1, MAX_ATTACKER_DICE + 1)
        for defender_dice in range(1, MAX_DEFENDER_DICE + 1)
    }


def _scaled_transitions() -> dict[tuple[int, int], dict[tuple[int, int], int]]:
    """Single-roll probabilities times _SCALE per army removed: always integers."""
    table: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for attacker_dice in range(1, MAX_ATTACKER_DICE + 1):
        for defender_dice in range(1, MAX_DEFENDER_DICE + 1):
            weights: dict[tuple[int, int], int] = {}
            for (attacker_losses, defender_losses), p in _roll_outcome_table(attacker_dice, defender_dice):
                scaled = p * _SCALE ** (attacker_losses + defender_losses)
                if scaled.denominator != 1:  # would mean _SCALE is wrong for these dice
                    raise ArithmeticError(f"{p} does not fit the common denominator {_SCALE}")
                weights[attacker_losses, defender_losses] = scaled.numerator
            table[attacker_dice, defender_dice] = weights
    return table


# _Rolls[(attacker_dice, defender_dice)][attacker_losses, defender_losses] = weight of that outcome
_Rolls = dict[tuple[int, int], dict[tuple[int, int], Number]]
_FLOAT_ROLLS: _Rolls[float] = _float_transitions()
_SCALED_ROLLS: _Rolls[int] = _scaled_transitions()


# The sweep splits the grid in two. In the *bulk*, a >= lowest and d >= 2 with
# lowest = max(3, stop_at + 1), 3 dice roll against 2: the same three moves everywhere, and every
# predecessor of a bulk state is a bulk state, so the bulk mass is a plain random walk, one
# convolution per anti-diagonal (NumPy for long diagonals of floats). The *edge* (d == 1, and
# a == 1 or 2 while they still attack) is a few chains of single states, walked one by one. Only
# the bulk states whose moves can leave the bulk (a in {lowest, lowest + 1} or d in {2, 3}) are
# read out. The same code runs on floats and on the exact engine's scaled integers.

# From this many bulk states per anti-diagonal on, NumPy beats Python lists (which spare small
# battles, the bots' kind, the import of NumPy).
_VECTORISE_FROM = 16


@dataclass(frozen=True)
class _BulkExits(Generic[Number]):
    """Bulk mass on the states whose rolls can leave the bulk."""

    two_left: list[Number]  # two_left[a] = mass at (a, 2)
    three_left: list[Number]  # three_left[a] = mass at (a, 3)
    lowest: list[Number]  # lowest[d] = mass at (lowest, d)
    next_lowest: list[Number]  # next_lowest[d] = mass at (lowest + 1, d)


def _sweep_bulk(
    initial: Sequence[Number], defenders: int, lowest: int, rolls: _Rolls[Number], zero: Number
) -> _BulkExits[Number]:
    """Push the initial bulk mass (at d = defenders) through the bulk, one anti-diagonal at a time.

    On diagonal s the mass is kept for a in [lowest, min(A, s - 2)] at index a - lowest; two
    diagonals down, new[i] = keep * mass[i] + each * mass[i + 1] + lose * mass[i + 2]. Moves keep
    the parity of s, so each parity is swept on its own, and only if it holds mass.
    """
    max_attackers = len(initial) - 1
    keep, each, lose = rolls[3, 2][0, 2], rolls[3, 2][1, 1], rolls[3, 2][2, 0]
    zeros: Callable[[int], Any]
    step: Callable[[Any, int], Any]
    as_list: Callable[[Any], list[Number]]
    if isinstance(zero, float) and max_attackers - lowest >= _VECTORISE_FROM:
        import numpy as np  # here, not at the top: importing NumPy costs more than a small battle

        weights = np.array([keep, each, lose])
        correlate = np.correlate
        zeros, as_list = np.zeros, operator.methodcaller("tolist")

        def step(mass: Any, length: int) -> Any:
            return correlate(mass, weights, "full")[2 : 2 + length]  # index 2 + i: weights @ mass[i:i+3]
    else:
        zeros, as_list = [zero].__mul__, list

        def step(mass: Any, length: int) -> Any:
            padded = [*mass, zero, zero]
            return [
                keep * same + each * one_more + lose * two_more
                for same, one_more, two_more in zip(
                    padded[:length], padded[1 : length + 1], padded[2 : length + 2], strict=True
                )
            ]

    two_left, three_left = zeros(max_attackers + 1), zeros(max_attackers + 1)
    lowest_mass, next_lowest_mass = zeros(defenders + 1), zeros(defenders + 1)
    for top_attackers in (max_attackers, max_attackers - 1) if defenders >= 2 else ():
        # The highest diagonal of this parity that receives initial mass; none: nothing to sweep.
        first = next((a for a in range(top_attackers, lowest - 1, -2) if initial[a]), None)
        if first is None:
            continue
        s = first + defenders
        mass = zeros(min(max_attackers, s - 2) - lowest + 1)
        while True:  # s - 2 >= lowest: diagonal s holds bulk states
            if s - defenders >= lowest:
                mass[s - defenders - lowest] += initial[s - defenders]
            if s - lowest <= defenders:
                lowest_mass[s - lowest] = mass[0]
            if s - lowest - 1 <= defenders and len(mass) > 1:
                next_lowest_mass[s - lowest - 1] = mass[1]
            if s - 2 <= max_attackers:
                two_left[s - 2] = mass[s - 2 - lowest]
            if lowest <= s - 3 <= max_attackers:
                three_left[s - 3] = mass[s - 3 - lowest]
            s -= 2
            if s - 2 < lowest:
                break
            mass = step(mass, min(max_attackers, s - 2) - lowest + 1)
    return _BulkExits(as_list(two_left), as_list(three_left), as_list(lowest_mass), as_list(next_lowest_mass))


def _sweep(
    initial: Sequence[Number], defenders: int, stop_at: int, rolls: _Rolls[Number], zero: Number
) -> _Absorbed[Number]:
    """Where the mass ``initial[a]`` at state (a, defenders) ends up, moved by the weights ``rolls``."""
    max_attackers = len(initial) - 1
    lowest = max(3, stop_at + 1)
    conquered = [zero] * (max_attackers + 1)
    failed: dict[tuple[int, int], Number] = {}
    # Mass arriving at the edge: one_left[a] at (a, 1); columns[a][d] at (a, d >= 2) for a < lowest.
    one_left = [zero] * (max_attackers + 1)
    columns = {a: [zero] * (defenders + 1) for a in (0, lowest - 2, lowest - 1)}

    for a in range(len(initial)) if defenders == 1 else range(min(lowest, len(initial))):
        if not initial[a]:
            continue
        if a <= stop_at:
            failed[a, defenders] = initial[a]
        elif defenders == 1:
            one_left[a] += initial[a]
        else:
            columns[a][defenders] += initial[a]

    exits = _sweep_bulk(initial, defenders, lowest, rolls, zero)
    keep, each, lose = rolls[3, 2][0, 2], rolls[3, 2][1, 1], rolls[3, 2][2, 0]
    two_left, three_left = exits.two_left, exits.three_left
    for a in range(lowest, max_attackers + 1):
        conquered[a] += keep * two_left[a]
        one_left[a] += keep * three_left[a]
        one_left[a - 1] += each * two_left[a]
    below, two_below = columns[lowest - 1], columns[lowest - 2]
    for d, (at_lowest, at_next_lowest) in enumerate(zip(exits.lowest, exits.next_lowest, strict=True)):
        if d >= 2:
            two_below[d] += lose * at_lowest
            below[d] += lose * at_next_lowest
            below[d - 1] += each * at_lowest if d >= 3 else zero

    if stop_at <= 1 and max_attackers >= 2:  # two attackers roll 2 dice against 2
        keep, each, lose = rolls[2, 2][0, 2], rolls[2, 2][1, 1], rolls[2, 2][2, 0]
        two, one = columns[2], columns[1]
        for d in range(defenders, 1, -1):
            mass = two[d]
            if d >= 4:
                two[d - 2] += keep * mass
            elif d == 3:
                one_left[2] += keep * mass
            else:
                conquered[2] += keep * mass
            if d >= 3:
                one[d - 1] += each * mass
            else:
                one_left[1] += each * mass
            columns[0][d] += lose * mass
    if stop_at == 0 and max_attackers >= 1 and defenders >= 2:  # one attacker: 1 die against 2
        win, lose = rolls[1, 2][0, 1], rolls[1, 2][1, 0]
        one = columns[1]
        for d in range(defenders, 2, -1):
            one[d - 1] += win * one[d]
            columns[0][d] += lose * one[d]
        one_left[1] += win * one[2]
        columns[0][2] += lose * one[2]
    # One defender: the attacker's dice against one die, down the row d == 1.
    against_one_die = {dice: (rolls[dice, 1][0, 1], rolls[dice, 1][1, 0]) for dice in (1, 2, 3)}
    for a in range(max_attackers, stop_at, -1):
        win, lose = against_one_die[min(a, MAX_ATTACKER_DICE)]
        conquered[a] += win * one_left[a]
        one_left[a - 1] += lose * one_left[a]

    # Where the attacker stopped (or was wiped out).
    for a in range(min(stop_at, max_attackers) + 1):
        if one_left[a]:
            failed[a, 1] = failed.get((a, 1), zero) + one_left[a]
    for a, column in columns.items():
        if a <= stop_at:
            for d in range(2, defenders + 1):
                if column[d]:
                    failed[a, d] = failed.get((a, d), zero) + column[d]
    return _Absorbed(conquered=tuple(conquered), failed=failed)


def _propagate_float(initial: Sequence[float], defenders: int, stop_at: int) -> _Absorbed[float]:
    """Float engine: ``initial[a]`` is the starting probability of state (a, defenders)."""
    return _sweep(initial, defenders, stop_at, _FLOAT_ROLLS, 0.0)


def _propagate_exact(initial: Sequence[Fraction], defenders: int, stop_at: int) -> _Absorbed[Fraction]:
    """Exact engine: the same sweep on integer numerators over a common denominator.

    The mass at (a, d) is ``numerator / (common * _SCALE ** (A + defenders - a - d))``: a roll
    removing k armies multiplies by its weight scaled by ``_SCALE ** k``, an integer.
    """
    max_attackers = len(initial) - 1
    top = max_attackers + defenders
    common = math.lcm(*(p.denominator for p in initial))
    scaled = [
        p.numerator * (common // p.denominator) * _SCALE ** (max_attackers - a) if p else 0
        for a, p in enumerate(initial)
    ]
    absorbed = _sweep(scaled, defenders, stop_at, _SCALED_ROLLS, 0)

    def to_fraction(numerator: int, s: int) -> Fraction:
        return Fraction(numerator, common * _SCALE ** (top - s)) if numerator else Fraction(0)

    return _Absorbed(
        conquered=tuple(to_fraction(n, a) for a, n in enumerate(absorbed.conquered)),
        failed={(a, d): to_fraction(n, a + d) for (a, d), n in absorbed.failed.items()},
    )


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def clear_cache() -> None:
    """Forget cached invasion results (for benchmarks and memory-conscious callers)."""
    _cached_float_invasion.cache_clear()
    _cached_exact_invasion.cache_clear()


@overload
def invasion(
    attackers: int, defenders: int, *, stop_at: int = 0, exact: Literal[False] = False
) -> BattleOdds[float]: ...
@overload
def invasion(
    attackers: int, defenders: int, *, stop_at: int = 0, exact: Literal[True]
) -> BattleOdds[Fraction]: ...
@overload
def invasion(
    attackers: int, defenders: int, *, stop_at: int = 0, exact: bool
) -> BattleOdds[float] | BattleOdds[Fraction]: ...
def invasion(
    attackers: int, defenders: int, *, stop_at: int = 0, exact: bool = False
) -> BattleOdds[float] | BattleOdds[Fraction]:
    """Odds of ``attackers`` fighting armies invading a territory held by ``defenders``.

    Both sides always throw the most dice they may: min(3, a) against min(2, d). The attacker
    fights until the defender is wiped out or until its fighting armies are down to ``stop_at``
    or fewer (``stop_at=0``: to the last army). ``attackers`` excludes the army that must stay
    in the attacking territory.

    ``exact=True`` returns ``Fraction`` values; the default returns floats. Results are cached.
    Raises ``ValueError`` for ``attackers < 0``, ``defenders < 1`` or ``stop_at < 0``.

    >>> round(invasion(3, 2).attacker_wins, 3)
    0.656
    """
    _require_int("attackers", attackers, minimum=0)
    _require_int("defenders", defenders, minimum=1)
    _require_int("stop_at", stop_at, minimum=0)
    # Callers get fresh dicts, so mutating a result cannot corrupt the cache.
    if exact:
        return _fresh(_cached_exact_invasion(attackers, defenders, stop_at))
    return _fresh(_cached_float_invasion(attackers, defenders, stop_at))


def _fresh(cached: BattleOdds[Probability]) -> BattleOdds[Probability]:
    """A copy of cached odds with fresh dicts."""
    return replace(
        cached,
        attacker_survivors=dict(cached.attacker_survivors),
        defender_survivors=dict(cached.defender_survivors),
        outcomes=dict(cached.outcomes),
    )


# Float results are small; exact ones of big battles hold thousands of huge fractions.
@lru_cache(maxsize=128)
def _cached_float_invasion(attackers: int, defenders: int, stop_at: int) -> BattleOdds[float]:
    initial = [0.0] * attackers + [1.0]
    return _battle_odds(attackers, defenders, stop_at, _propagate_float(initial, defenders, stop_at), 0.0)


@lru_cache(maxsize=16)
def _cached_exact_invasion(attackers: int, defenders: int, stop_at: int) -> BattleOdds[Fraction]:
    initial = [Fraction(0)] * attackers + [Fraction(1)]
    absorbed = _propagate_exact(initial, defenders, stop_at)
    return _battle_odds(attackers, defenders, stop_at, absorbed, Fraction(0))


def _total(
    values: Iterable[Probability], zero: Probability, weights: Iterable[int] | None = None
) -> Probability:
    """The sum of ``weight * value`` (every weight 1 by default). Fractions are added over one
    common denominator: one reduction in all, not one per term."""
    if not isinstance(zero, Fraction):
        return sum(values if weights is None else map(operator.mul, weights, values), zero)
    terms = list(values)
    factors = [1] * len(terms) if weights is None else list(weights)
    denominator = math.lcm(*(p.denominator for p in terms))
    pairs = zip(factors, terms, strict=True)
    numerator = sum(weight * p.numerator * (denominator // p.denominator) for weight, p in pairs)
    return Fraction(numerator, denominator)


def _battle_odds(
    attackers: int, defenders: int, stop_at: int, absorbed: _Absorbed[Probability], zero: Probability
) -> BattleOdds[Probability]:
    attacker_survivors = {a: p for a, p in enumerate(absorbed.conquered) if p}
    outcomes = {(a, 0): p for a, p in attacker_survivors.items()}
    outcomes.update(sorted(absorbed.failed.items()))
    defender_survivors: dict[int, Probability] = {}
    for (_, d), p in sorted(absorbed.failed.items(), key=lambda item: item[0][1]):
        defender_survivors[d] = defender_survivors.get(d, zero) + p
    attacker_wins = _total(attacker_survivors.values(), zero)
    expected_attacker_left = _total(outcomes.values(), zero, weights=(a for a, _ in outcomes))
    expected_defender_left = _total(outcomes.values(), zero, weights=(d for _, d in outcomes))
    return BattleOdds(
        attackers=attackers,
        defenders=defenders,
        stop_at=stop_at,
        attacker_wins=attacker_wins,
        attacker_survivors=attacker_survivors,
        defender_survivors=defender_survivors,
        outcomes=outcomes,
        expected_attacker_losses=attackers - expected_attacker_left,
        expected_defender_losses=defenders - expected_defender_left,
    )


@overload
def chain(
    attackers: int, defenders_path: Sequence[int], *, exact: Literal[False] = False
) -> ChainOdds[float]: ...
@overload
def chain(attackers: int, defenders_path: Sequence[int], *, exact: Literal[True]) -> ChainOdds[Fraction]: ...
@overload
def chain(
    attackers: int, defenders_path: Sequence[int], *, exact: bool
) -> ChainOdds[float] | ChainOdds[Fraction]: ...
def chain(
    attackers: int, defenders_path: Sequence[int], *, exact: bool = False
) -> ChainOdds[float] | ChainOdds[Fraction]:
    """Odds of one stack conquering a path of territories, one after the other.

    ``attackers`` fighting armies (excluding the one left in the origin) attack the first
    territory, fighting to the end. After conquering territory i with ``s`` survivors, the whole
    stack moves in, one army stays there and the other ``s - 1`` fight on against territory i+1;
    if ``s - 1 == 0`` the chain stops with i territories taken. After the last conquest all ``s``
    survivors stay in the last territory (``arrived``).

    Raises ``ValueError`` for ``attackers < 0``, an empty path, or a territory with fewer than
    one defender.
    """
    _require_int("attackers", attackers, minimum=0)
    path = tuple(defenders_path)
    if not path:
        raise ValueError("defenders_path must name at least one territory")
    for index, defenders in enumerate(path):
        _require_int(f"defenders_path[{index}]", defenders, minimum=1)
    if exact:
        return _chain(attackers, path, Fraction(1), _propagate_exact)
    return _chain(attackers, path, 1.0, _propagate_float)


def _chain(
    attackers: int,
    path: tuple[int, ...],
    one: Probability,
    propagate: Callable[[Sequence[Probability], int, int], _Absorbed[Probability]],
) -> ChainOdds[Probability]:
    zero = one - one
    force = [zero] * attackers + [one]  # force[a] = P(a fighting armies face the next territory)
    at_least = [one]
    conquered: Sequence[Probability] = ()
    for index, defenders in enumerate(path):
        conquered = propagate(force, defenders, 0).conquered
        at_least.append(_total(conquered, zero))
        if index < len(path) - 1:
            # One survivor stays behind; a lone survivor cannot go on (force[0] stays zero).
            force = [zero]
            force.extend(conquered[2:])
    return ChainOdds(
        attackers=attackers,
        defenders_path=path,
        takes_all=at_least[-1],
        at_least=tuple(at_least),
        arrived={s: p for s, p in enumerate(conquered) if p},
        expected_conquered=sum(at_least[1:], zero),
    )
