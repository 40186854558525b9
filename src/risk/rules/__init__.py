"""The rules core: rulesets, actions and their notation, the state, the turn machine and the game
variants (docs/rules-core.md). Import from the modules (``risk.rules.game``, ``risk.rules.options``,
``risk.rules.actions``...): this package loads nothing by itself, so a part of it loads alone."""
