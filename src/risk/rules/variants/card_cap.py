"""A house rule, not from the rulebooks: no set of cards is worth more than N armies.

``card-value-cap=N`` (0, the default: no cap). Players ask for it because escalating set values
(4, 6, 8, 10, 12, 15, 20, 25...) let whoever trades late in a long game flood the board. It caps
every chart the same way: escalating, plus-one (1993 experts) and the fixed chart (2003 Mission and
Team RISK). The +2 armies for a held territory shown on a traded card are not part of the set's value
and still come on top. docs/rules-core.md walks through this module as its worked example.
"""

from __future__ import annotations

from risk.rules.state import State
from risk.rules.variants.base import Variant


class CardValueCap(Variant[State]):
    """Sets are worth what the chart says, but never more than ``rules.card_value_cap`` armies."""

    name = "card-value-cap"

    def set_value(self, game: State, value: int) -> int:
        return min(value, self.rules.card_value_cap)
