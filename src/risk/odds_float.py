"""The bots' battle odds on plain floats: P(an invasion fought to the last army succeeds), and the odds
of a chain of invasions (:func:`chain_odds`), compiled by mypyc.

:mod:`risk.odds` computes every end state of an invasion, on floats or exactly, with one sweep over
value-restricted type variables (float or integer), which mypyc cannot compile. The bots only ask
for the attacker's chance of conquering when it fights to its last army, in small battles (both
sides clamped to 60 by :mod:`risk.bots.battle_odds`): this module runs the same sweep (see
:mod:`risk.odds` for the method) for the conquering mass alone, on floats, with the same operations
in the same order, so it gives the very floats ``invasion(a, d).attacker_wins`` gives
(tests/test_odds_float.py checks every battle the bots can ask about). The diagonals are
``librt.vecs.vec[float]`` (mypyc's native vector: compiled, unboxed C doubles; :mod:`risk.odds`
hands long ones to NumPy), each swept in place: compiled, 6 times faster than on Python lists.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from risk.odds import roll_outcomes


def _zeros(n: i64) -> vec[float]:
    return vec[float]([0.0] * n)


__all__ = ["attacker_wins", "chain_odds"]


def _weight(attacker_dice: int, defender_dice: int, attacker_losses: int, defender_losses: int) -> float:
    """The float probability of one roll's outcome, as :mod:`risk.odds` rounds it."""
    return float(roll_outcomes(attacker_dice, defender_dice)[attacker_losses, defender_losses])


# The moves of the states the sweep walks: 3 dice against 2 (the bulk), 2 against 2, 1 against 2, and
# 1-3 dice against one defender. Plain floats: mypyc keeps a Final float in a C variable (a tuple of them
# indexed by a variable would be built anew at each use).
KEEP_3V2: Final = _weight(3, 2, 0, 2)
EACH_3V2: Final = _weight(3, 2, 1, 1)
LOSE_3V2: Final = _weight(3, 2, 2, 0)
KEEP_2V2: Final = _weight(2, 2, 0, 2)
EACH_2V2: Final = _weight(2, 2, 1, 1)
WIN_1V2: Final = _weight(1, 2, 0, 1)
WIN_1V1: Final = _weight(1, 1, 0, 1)
LOSE_1V1: Final = _weight(1, 1, 1, 0)
WIN_2V1: Final = _weight(2, 1, 0, 1)
LOSE_2V1: Final = _weight(2, 1, 1, 0)
WIN_3V1: Final = _weight(3, 1, 0, 1)
LOSE_3V1: Final = _weight(3, 1, 1, 0)
# The lowest attacker count of the bulk (risk.odds' ``lowest`` when the attacker fights to the end).
LOWEST: Final = 3


def attacker_wins(attackers: int, defenders: int) -> float:
    """P(``attackers`` fighting armies conquer a territory held by ``defenders``, fighting to the last
    army): the same float as ``risk.odds.invasion(attackers, defenders).attacker_wins``.

    >>> attacker_wins(3, 2)
    0.6559539998031296
    """
    if attackers <= 0 or defenders <= 0:
        raise ValueError(f"attackers and defenders must be at least 1, got {attackers} and {defenders}")
    conquered = _conquered(attackers, defenders)
    return sum([p for p in conquered if p], 0.0)  # the builtin sum, as risk.odds adds them


def _conquered(attackers: int, defenders: int) -> vec[float]:
    """``conquered[a]``: P(the invasion ends in a conquest with ``a`` fighting armies left).

    risk.odds' ``_sweep`` with ``stop_at = 0`` and all the mass starting at (attackers, defenders),
    without the failed end states: the edge walked state by state after the bulk's sweep. (``x = x + y``,
    not ``x += y``: mypyc compiles an augmented assignment to an item as a generic Python addition.)
    """
    top = attackers
    conquered = _zeros(top + 1)
    one_left = _zeros(top + 1)  # mass arriving at (a, 1)
    column_one = _zeros(defenders + 1)  # mass arriving at (1, d >= 2)
    column_two = _zeros(defenders + 1)  # mass arriving at (2, d >= 2)
    if defenders == 1:
        one_left[top] = 1.0
    elif top < LOWEST:
        if top == 1:
            column_one[defenders] = 1.0
        else:
            column_two[defenders] = 1.0

    _walk_edge(top, defenders, conquered, one_left, column_one, column_two, _sweep_bulk(top, defenders))
    return conquered


def _walk_edge(
    top: int,
    defenders: int,
    conquered: vec[float],
    one_left: vec[float],
    column_one: vec[float],
    column_two: vec[float],
    exits: tuple[vec[float], vec[float], vec[float], vec[float]],
) -> None:
    """From the bulk's exits on, the edge walked state by state (risk.odds' ``_sweep`` after its
    ``_sweep_bulk``, ``stop_at = 0``): adds to ``conquered`` the mass that ends in a conquest."""
    two_left, three_left, at_lowest, at_next_lowest = exits
    for a in range(LOWEST, top + 1):
        conquered[a] = conquered[a] + KEEP_3V2 * two_left[a]
        one_left[a] = one_left[a] + KEEP_3V2 * three_left[a]
        one_left[a - 1] = one_left[a - 1] + EACH_3V2 * two_left[a]
    for d in range(2, defenders + 1):
        column_one[d] = column_one[d] + LOSE_3V2 * at_lowest[d]
        column_two[d] = column_two[d] + LOSE_3V2 * at_next_lowest[d]
        if d >= 3:
            column_two[d - 1] = column_two[d - 1] + EACH_3V2 * at_lowest[d]

    if top >= 2:  # two attackers roll 2 dice against 2
        for d in range(defenders, 1, -1):
            mass = column_two[d]
            if d >= 4:
                column_two[d - 2] = column_two[d - 2] + KEEP_2V2 * mass
            elif d == 3:
                one_left[2] = one_left[2] + KEEP_2V2 * mass
            else:
                conquered[2] = conquered[2] + KEEP_2V2 * mass
            if d >= 3:
                column_one[d - 1] = column_one[d - 1] + EACH_2V2 * mass
            else:
                one_left[1] = one_left[1] + EACH_2V2 * mass
    if defenders >= 2 and top >= 1:  # one attacker: 1 die against 2
        for d in range(defenders, 2, -1):
            column_one[d - 1] = column_one[d - 1] + WIN_1V2 * column_one[d]
        one_left[1] = one_left[1] + WIN_1V2 * column_one[2]
    # One defender: the attacker's dice against one die, down the row d == 1.
    for a in range(top, 0, -1):
        win, lose = (WIN_3V1, LOSE_3V1) if a >= 3 else (WIN_2V1, LOSE_2V1) if a == 2 else (WIN_1V1, LOSE_1V1)
        conquered[a] = conquered[a] + win * one_left[a]
        one_left[a - 1] = one_left[a - 1] + lose * one_left[a]


def _conquered_from(initial: vec[float], defenders: int) -> vec[float]:
    """``_conquered`` for mass spread over the attacker counts: ``initial[a]`` at (a, defenders), as
    risk.odds' ``_sweep`` takes it (a chain's next territory faces every count of survivors)."""
    top = len(initial) - 1
    conquered = _zeros(top + 1)
    one_left = _zeros(top + 1)
    column_one = _zeros(defenders + 1)
    column_two = _zeros(defenders + 1)
    if defenders == 1:
        for a in range(1, top + 1):
            one_left[a] = initial[a]
    else:
        if top >= 1:
            column_one[defenders] = initial[1]
        if top >= 2:
            column_two[defenders] = initial[2]
    _walk_edge(
        top, defenders, conquered, one_left, column_one, column_two, _sweep_bulk_from(initial, defenders)
    )
    return conquered


def _sweep_bulk_from(
    initial: vec[float], defenders: int
) -> tuple[vec[float], vec[float], vec[float], vec[float]]:
    """``_sweep_bulk`` for mass spread over the attacker counts: risk.odds' ``_sweep_bulk``, each
    parity of the anti-diagonals swept from the highest that holds mass, the initial mass of each
    diagonal added as the sweep reaches it; every term summed as risk.odds sums it."""
    top = len(initial) - 1
    two_left = _zeros(top + 1)
    three_left = _zeros(top + 1)
    at_lowest = _zeros(defenders + 1)
    at_next_lowest = _zeros(defenders + 1)
    if defenders < 2:
        return two_left, three_left, at_lowest, at_next_lowest
    for highest in (top, top - 1):
        first = highest
        while first >= LOWEST and not initial[first]:
            first -= 2
        if first < LOWEST:
            continue
        s = first + defenders
        size = min(top, s - 2) - LOWEST + 1  # the diagonal's length; the buffer is swept in place
        mass = _zeros(size)
        while True:
            if s - defenders >= LOWEST:
                index = s - defenders - LOWEST
                mass[index] = mass[index] + initial[s - defenders]
            _keep_exits(s, top, defenders, mass, size, two_left, three_left, at_lowest, at_next_lowest)
            s -= 2
            if s - 2 < LOWEST:
                break
            # Two diagonals down, in place: index i is written after the last read of it.
            length = min(top, s - 2) - LOWEST + 1
            for i in range(length):
                same = mass[i]
                one_more = mass[i + 1] if i + 1 < size else 0.0
                two_more = mass[i + 2] if i + 2 < size else 0.0
                mass[i] = KEEP_3V2 * same + EACH_3V2 * one_more + LOSE_3V2 * two_more
            size = length
    return two_left, three_left, at_lowest, at_next_lowest


def _keep_exits(
    s: int,
    top: int,
    defenders: int,
    mass: vec[float],
    size: int,
    two_left: vec[float],
    three_left: vec[float],
    at_lowest: vec[float],
    at_next_lowest: vec[float],
) -> None:
    """Keep the mass of anti-diagonal ``s`` on the states whose rolls leave the bulk: (a, 2), (a, 3),
    (LOWEST, d) and (LOWEST + 1, d)."""
    if s - LOWEST <= defenders:
        at_lowest[s - LOWEST] = mass[0]
    if s - LOWEST - 1 <= defenders and size > 1:
        at_next_lowest[s - LOWEST - 1] = mass[1]
    if s - 2 <= top:
        two_left[s - 2] = mass[s - 2 - LOWEST]
    if LOWEST <= s - 3 <= top:
        three_left[s - 3] = mass[s - 3 - LOWEST]


def chain_odds(attackers: int, path: tuple[int, ...]) -> tuple[float, float]:
    """P(``attackers`` fighting armies conquer every territory of ``path`` in turn) and the territories
    they are expected to conquer: ``risk.odds.chain(attackers, path)``'s ``takes_all`` and
    ``expected_conquered`` (see there: after each conquest one army stays behind), summed the same
    way in lists. Where risk.odds hands a later territory's long diagonals to NumPy, whose dot fuses
    a multiply and an add at a diagonal's end, the two may differ in the last bit (tests/test_odds_float.py).
    The warlord's plans ask for thousands of these a game: compiled, 20 times faster than risk.odds.

    >>> chain_odds(5, (1, 1))
    (0.9137811970695815, 1.9040983025937923)
    """
    if attackers < 0 or not path or min(path) < 1:
        raise ValueError(
            f"need attackers >= 0 and a path of territories held by 1 or more: {attackers}, {path}"
        )
    force = _zeros(attackers + 1)
    force[attackers] = 1.0
    taken: list[float] = []
    for index, defenders in enumerate(path):
        conquered = _conquered_from(force, defenders)
        taken.append(sum(conquered, 0.0))  # the builtin sum, in order, as risk.odds adds them
        if index < len(path) - 1:
            force = _zeros(1 + max(0, len(conquered) - 2))
            for a in range(2, len(conquered)):
                force[a - 1] = conquered[a]
    return taken[-1], sum(taken, 0.0)


def _sweep_bulk(top: int, defenders: int) -> tuple[vec[float], vec[float], vec[float], vec[float]]:
    """The bulk's mass (3 dice against 2) on the states whose rolls leave it: at (a, 2), at (a, 3), at
    (LOWEST, d) and at (LOWEST + 1, d); risk.odds' ``_sweep_bulk``, from (top, defenders).

    The mass of anti-diagonal s is kept for a in [LOWEST, min(top, s - 2)] at index a - LOWEST; two
    diagonals down, new[i] = keep * mass[i] + each * mass[i + 1] + lose * mass[i + 2].
    """
    two_left = _zeros(top + 1)
    three_left = _zeros(top + 1)
    at_lowest = _zeros(defenders + 1)
    at_next_lowest = _zeros(defenders + 1)
    if defenders < 2 or top < LOWEST:
        return two_left, three_left, at_lowest, at_next_lowest
    s = top + defenders
    size = top - LOWEST + 1
    mass = _zeros(size)
    mass[top - LOWEST] = 1.0
    while True:
        _keep_exits(s, top, defenders, mass, size, two_left, three_left, at_lowest, at_next_lowest)
        s -= 2
        if s - 2 < LOWEST:
            break
        # Two diagonals down, in place (past the diagonal's end, no mass).
        length = min(top, s - 2) - LOWEST + 1
        # Only a >= s - defenders (d <= defenders) can hold mass: below, every term is 0.0 and so the sum.
        start = max(0, s - defenders - LOWEST)
        same, one_more = mass[start], mass[start + 1] if start + 1 < size else 0.0
        for i in range(start, length):  # each mass of the diagonal above read once
            two_more = mass[i + 2] if i + 2 < size else 0.0
            mass[i] = KEEP_3V2 * same + EACH_3V2 * one_more + LOSE_3V2 * two_more
            same, one_more = one_more, two_more
        size = length
    return two_left, three_left, at_lowest, at_next_lowest
