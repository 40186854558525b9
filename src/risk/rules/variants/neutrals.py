"""2-player RISK (1993, 2003, 2008): neutral armies in the seats after the players, the setup that
deals and places them, and how a 2-player game is won.

Neutral seats never take a turn; "Your opponent rolls defense for neutral territories" (the core's
battle rule for any neutral seat). Whether neutrals are passive roadblocks or active allies is
``neutral-mode``: active neutrals are the module ``active.py``.
"""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any

from mypy_extensions import trait

from risk.rules.goal import Goal, GoalKind
from risk.rules.options import BOOK_TERRITORIES
from risk.rules.state import Kept, Outcome, State
from risk.rules.variants.base import Variant


def _copy_queue(queue: deque[tuple[int, int]] | None) -> deque[tuple[int, int]] | None:
    return None if queue is None else deque(queue)


def _save_queue(queue: deque[tuple[int, int]] | None, state: Any) -> Any:
    return None if queue is None else [list(step) for step in queue]


def _load_queue(value: Any, state: Any) -> deque[tuple[int, int]] | None:
    return None if value is None else deque((a, b) for a, b in value)


@trait
class NeutralState(State):
    __slots__ = ()
    # The 2-player setup: the order of placements, as (player placing, seat whose army it is).
    _setup_queue: Annotated[
        deque[tuple[int, int]] | None,
        Kept(_copy_queue, _save_queue, _load_queue, absent=lambda seats: None),
    ]


class NeutralArmies(Variant[NeutralState]):
    """Neutral armies: ``neutrals`` extra seats with ``neutral-armies`` armies each."""

    name = "neutral-armies"

    def seat_names(self, names: list[str]) -> tuple[list[str], list[str]]:
        rules = self.rules
        if len(names) == rules.players[1] + rules.neutrals:
            names = names[: rules.players[1]]  # a record or save lists the neutral seats too
        extra = ["Neutral"] if rules.neutrals == 1 else [f"Neutral {i + 1}" for i in range(rules.neutrals)]
        return names, extra

    def setup(self, game: NeutralState) -> None:
        # The game's own rules: which options were set by hand is not part of a Rules' equality, so
        # this variant, made once for every equal Rules (risk.rules.variants.hooks_for), must not
        # read it from its own.
        rules, seats = game.rules, len(game.players)
        players, neutrals = game.setup_armies[0], rules.neutral_armies
        board = game.board
        # On a made board larger than the classic one, the book's armies would not cover the deal (or
        # leave next to nothing to place): each seat gets the book's armies for each territory it is
        # dealt on the classic board (docs/rules.md, "2-player RISK"). Armies set with
        # an option stay as set.
        if board.players is not None and len(board) > BOOK_TERRITORIES:
            here = self._quotas(len(board), seats, game.humans)
            book = self._quotas(BOOK_TERRITORIES, seats, game.humans)
            if "starting_armies" not in rules.overrides:
                players = round(players * here[0] / book[0])
            if "neutral_armies" not in rules.overrides:
                neutrals = round(neutrals * here[-1] / book[-1])
        for seat in range(seats):
            game.setup_armies[seat] = neutrals if game.neutral[seat] else players

    def deal_quotas(self, game: NeutralState) -> list[int]:
        return self._quotas(len(game.board), len(game.players), game.humans)

    def _quotas(self, territories: int, seats: int, humans: int) -> list[int]:
        """Territories dealt to each seat (the players first, then the neutrals), before the ones left
        over. 2003: "Deal out 9 Territory cards to each player and 6 to each neutral."; one neutral
        (1993, 2008): as even as can be."""
        if self.rules.neutrals == 1:
            return [territories // seats] * seats
        per_neutral = min(6, territories // seats)
        per_human = (territories - per_neutral * self.rules.neutrals) // humans
        return [per_human] * humans + [per_neutral] * (seats - humans)

    def after_deal(self, game: NeutralState) -> None:
        game._setup_queue = self._placements(game)

    def next_setup_placer(self, game: NeutralState) -> bool:
        queue = game._setup_queue
        if queue is None:
            return False  # territories were claimed: the core's turn order
        if queue:
            player, seat = queue.popleft()
            game.current = game.to_act = player
            game.placing_for = seat
        else:
            game.end_setup()
        return True

    def _placements(self, game: NeutralState) -> deque[tuple[int, int]]:
        """Who places which army, in order, in the 2-player setup.

        1993: "2 of yours on your territories, then 1 neutral"; 2003: "3 of his/her units ... and then
        1 unit for each neutral"; 2008: own armies two at a time until gone, "Then, take turns
        placing one neutral troop".
        """
        left = game.setup_armies[:]
        humans = [(game.first_player + i) % game.humans for i in range(game.humans)]
        neutrals = [i for i in range(len(game.players)) if game.neutral[i]]
        batch = self.rules.setup_batch
        steps: deque[tuple[int, int]] = deque()

        def own(player: int) -> None:
            for _ in range(batch):
                if left[player] > 0:
                    steps.append((player, player))
                    left[player] -= 1

        def neutral_round(player: int, each: bool) -> None:
            for seat in neutrals:
                if left[seat] > 0:
                    steps.append((player, seat))
                    left[seat] -= 1
                    if not each:
                        break

        if self.rules.neutral_placement == "interleaved":
            while any(left):
                for player in humans:
                    own(player)
                    neutral_round(player, each=True)
        else:
            while any(left[p] for p in humans):
                for player in humans:
                    own(player)
            while any(left[s] for s in neutrals):
                for player in humans:
                    neutral_round(player, each=False)
        return steps


class TwoPlayer(Variant[State]):
    """How a 2-player game ends: "You do NOT need to eliminate neutral armies"."""

    name = "two-player"
    goal = Goal(GoalKind.OPPONENT)

    def outcome(self, game: State, winner: int, last_standing: bool) -> Outcome | None:
        return Outcome(winner, "eliminated the opponent", (winner,)) if last_standing else None

    def resignation_outcome(self, game: State, winner: int, gone: str) -> Outcome | None:
        return Outcome(winner, f"the opponent resigned ({gone})", (winner,))
