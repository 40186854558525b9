"""The interface between the turn machine and the game variants (issue 41, item 2), read from the
source with ``ast``:

- a variant takes the machine's steps through the public, typed :class:`~risk.rules.state.Steps`
  (begin play, end the game, pass the turn...), never a private method; front ends take none;
- private reads across the modules of ``risk.rules`` are the named list below, and no other: a new
  one fails here (make it a public step or query, or name it here with the reason);
- ``game.py`` imports no variant module (only the registry), and no variant module imports it;
  ``Game`` re-exposes none of the variants' queries (they are asked of the variant or of a View);
- the view, the records and the determiniser decide no variant's secrets: they ask the variants'
  secrecy hooks (tests/test_variant_secrets.py shows a new variant's secret kept by them).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from risk.rules.game import Game
from risk.rules.state import State, Steps

SRC = Path(__file__).resolve().parents[1] / "src" / "risk"
RULES = SRC / "rules"
# A NamedTuple's public API starts with "_": not a private read.
NAMED_TUPLE_API = frozenset(("_replace", "_asdict", "_fields", "_make"))

# Each private read across modules inside risk.rules, with how many times it is made, and why.
CROSS_MODULE_PRIVATE_READS = {
    # The pending attack and conquest: the state's own fields, which the core's phases (battle,
    # resignation) and Team RISK's battle read and write; front ends read them as
    # Game.pending_attack and Game.pending_occupation.
    ("battle.py", "_attack"): 8,
    ("battle.py", "_occupy"): 4,
    ("resign.py", "_attack"): 3,
    ("resign.py", "_occupy"): 1,
    ("variants/team.py", "_occupy"): 1,
    # Chance: the generator and a replayed record's outcomes (state.Chance), read by the core's
    # setup, the battle's roll, the machine and the variants that deal a secret (missions), and
    # replaced in a determinised copy.
    ("battle.py", "_roll"): 1,
    ("game.py", "_chance_player"): 2,
    ("game.py", "_shuffle_deck"): 1,
    ("setup.py", "_check_chance"): 1,
    ("setup.py", "_rng"): 1,
    ("setup.py", "_script"): 1,
    ("setup.py", "_scripted"): 1,
    ("variants/missions.py", "_check_chance"): 2,
    ("variants/missions.py", "_rng"): 2,
    ("variants/missions.py", "_script"): 4,
    ("variants/missions.py", "_scripted"): 2,
    ("determinise.py", "_rng"): 1,
    # Game.pending_roll: the 1993 experts' roll awaiting a change, asked of the game as the pending
    # attack is (the fog of war and the front ends read it).
    ("game.py", "_rolled"): 2,
}


def _defined_in(tree: ast.AST) -> set[str]:
    """The names a module defines itself: functions, classes, fields, module names, ``self._x``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            names.add(node.attr)
    return names


def cross_module_private_reads(root: Path) -> Counter[tuple[str, str]]:
    """Each ``x._name`` in a module under ``root`` whose ``_name`` that module does not define."""
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _defined_in(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in NAMED_TUPLE_API
                and node.attr not in own
            ):
                found[(path.relative_to(root).as_posix(), node.attr)] += 1
    return found


def test_private_reads_across_the_rules_modules_are_the_named_ones() -> None:
    found = cross_module_private_reads(RULES)
    new = {read: count for read, count in found.items() if count > CROSS_MODULE_PRIVATE_READS.get(read, 0)}
    assert not new, f"new private reads across modules of risk.rules: {new}"
    gone = {read for read, count in CROSS_MODULE_PRIVATE_READS.items() if found[read] < count}
    assert not gone, f"these private reads are gone (or fewer): take them off the list: {gone}"


def test_the_counter_finds_a_private_read_of_another_module(tmp_path: Path) -> None:
    (tmp_path / "own.py").write_text("class A:\n    def _step(self) -> None:\n        self._x = 1\n")
    (tmp_path / "other.py").write_text("def f(game):\n    game._step()\n    return game._x, game.x\n")
    assert cross_module_private_reads(tmp_path) == Counter({("other.py", "_step"): 1, ("other.py", "_x"): 1})


def _imports(path: Path) -> set[str]:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    return imported


def test_game_and_the_variant_modules_do_not_import_each_other() -> None:
    variant_modules = [p for p in (RULES / "variants").glob("*.py") if p.name != "__init__.py"]
    assert variant_modules
    modules = {f"risk.rules.variants.{path.stem}" for path in variant_modules}
    from_game = modules & _imports(RULES / "game.py")
    assert not from_game, f"game.py imports variant modules: {from_game} (ask the registry)"
    for path in variant_modules:
        assert "risk.rules.game" not in _imports(path), f"{path.name} imports the turn machine"


def test_the_game_re_exposes_no_variant_query() -> None:
    for path in (RULES / "variants").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        queries = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        re_exposed = {name for name in queries if not name.startswith("_") and hasattr(Game, name)}
        assert not re_exposed, f"Game re-exposes {path.stem}'s {sorted(re_exposed)}"


def _steps() -> set[str]:
    return {name for name in vars(Steps) if not name.startswith("_")}


def test_every_state_takes_the_steps_and_front_ends_take_none() -> None:
    steps = _steps()
    assert {"begin_play", "end_game", "pass_turn", "settle_roll"} <= steps
    assert all(callable(getattr(State, name)) and callable(getattr(Game, name)) for name in steps)
    taken = []
    for path in sorted(SRC.rglob("*.py")):
        if RULES in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in steps
            ):
                taken.append(f"{path.relative_to(SRC)}:{node.lineno} {node.func.attr}")
    assert not taken, f"front ends apply actions, they take no step of the machine: {taken}"


# The variants' public queries that View offers bots, typed (not secrets: who holds what, an invasion).
VIEW_QUERIES = {
    "risk.rules.variants.active.invasion_needs_call_off",
    "risk.rules.variants.active.open_invasion",
    "risk.rules.variants.missions.claimable_missions",
    "risk.rules.variants.missions.ready_missions",
    "risk.rules.variants.team.team_at",
}
# What told the secrecy code which game was played, and read its secrets, before the variants' hooks.
VARIANT_FIELDS = {
    "CHOOSE_CAPITAL",
    "TURN_END",
    "missions",
    "mission_cards",
    "capitals",
    "in_sight",
    "seen_owner",
    "seen_armies",
    "seen_turn",
    "seen_battle",
    "witnessed",
}


def test_the_view_records_and_determiniser_decide_no_variants_secret() -> None:
    for path in (SRC / "view.py", SRC / "record.py", RULES / "determinise.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        from_variants = {
            name
            for name in _imports(path)
            if name.startswith("risk.rules.variants.") and name.count(".") == 4
        }
        allowed = VIEW_QUERIES if path.name == "view.py" else set()
        assert from_variants <= allowed, f"{path.name} imports {sorted(from_variants - allowed)}"
        read = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr in VARIANT_FIELDS
            and ast.unparse(node.value) not in ("self", "hooks", "game.hooks")  # its own, or a hook
        }
        assert not read, f"{path.name} reads {sorted(read)}: ask the variants' secrecy hooks"
        tests = [
            ast.unparse(node)
            for node in ast.walk(tree)
            if isinstance(node, ast.Compare)
            and any(isinstance(n, ast.Attribute) and n.attr in ("game", "fog") for n in ast.walk(node))
        ]
        assert not tests, f"{path.name} tests which game is played: {tests}"
