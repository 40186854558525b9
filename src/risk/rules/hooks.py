"""How a kind of action is refused and applied (``ActionRule``) and the table of one game's variant
hooks (``Hooks``), as the turn machine calls them. Both live in ``state.py``, beside the state whose
``hooks`` field they type (the state and its hooks name each other); the phases and the variants
import them from here.
"""

from __future__ import annotations

from risk.rules.state import NO_HOOKS, ActionRule, Hooks

__all__ = ["NO_HOOKS", "ActionRule", "Hooks"]
