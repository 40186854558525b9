"""How a game is won, as the front ends and the bots ask it.

A front end never asks which game is played (``rules.game == "capital"``): it asks the game's
:class:`Goal`, which the variant that sets the goal declares (``Variant.goal`` in
``variants/base.py``); a game without such a variant is world domination. The registry
(``variants/__init__.py``) gives it for a ruleset (``goal_of``), :class:`~risk.view.View` as ``goal``,
and the web app in the view's JSON (``"goal"``). A new game declares its goal with the flags that
say how to show it, and the front ends follow without learning its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from risk.rules.pickling import picklable


class GoalKind(StrEnum):
    """What the players play for."""

    WORLD = "world"  # conquer every territory: every other player eliminated
    OPPONENT = "opponent"  # eliminate the opponent; the neutral armies need not be beaten (2-player RISK)
    TEAM = "team"  # a player of the other team eliminated (Team RISK)
    SECRET_MISSION = "secret-mission"  # one secret mission card each (Secret Mission RISK)
    HEADQUARTERS = "headquarters"  # hold one's own headquarters and enough of the others' (Capital RISK)
    MISSION_CARDS = "mission-cards"  # four mission cards each, claimed one a turn at their time (Mission)


@dataclass(frozen=True, slots=True)
class Goal:
    """A game's goal and what a front end needs to know to show it."""

    kind: GoalKind
    # Each player holds a goal the others may not see yet (a mission, a headquarters chosen in
    # secret): a screen shared by several players is cleared between them.
    secret: bool = False
    # The goals name seats by colour ("destroy all yellow armies", ``missions.COLOURS``): each seat
    # must wear the colour of that list.
    names_colours: bool = False

    def to_dict(self) -> dict[str, Any]:
        """As JSON data (the web app's view, the lobby's list of games)."""
        return {"kind": self.kind.value, "secret": self.secret, "names_colours": self.names_colours}


WORLD_DOMINATION = Goal(GoalKind.WORLD)

__all__ = ["WORLD_DOMINATION", "Goal", "GoalKind"]

picklable(Goal)
