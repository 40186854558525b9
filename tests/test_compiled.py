"""The two builds of the rules core (docs/compiled.md): the one in use is the one asked for, and an
out-of-date or unwanted compiled build never runs.

`make test` sets RISK_EXPECT_BUILD to the build each run is meant to test ("compiled" or "pure"), so
that CI cannot test pure Python twice without noticing."""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import risk
import risk.build
from risk.bots import BOTS
from risk.build import COMPILED, PURE, compiled_build, running_build
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View


def test_the_build_in_use_is_the_one_make_test_asked_for() -> None:
    modules, not_used = compiled_build()
    files = {name: importlib.import_module(name).__file__ or "" for name in modules}
    compiled = sorted(name for name, file in files.items() if not file.endswith(".py"))
    expected = os.environ.get("RISK_EXPECT_BUILD")
    if expected == "compiled":
        assert not_used is None and modules, not_used
        assert compiled == sorted(modules)  # every listed module really is an extension module
        assert importlib.import_module("risk.rules.game").__file__.endswith(".so")
        assert running_build() == COMPILED
    elif expected == "pure":
        assert compiled == []
        assert importlib.import_module("risk.rules.game").__file__.endswith(".py")
        assert running_build().startswith(PURE)
    else:  # a run by hand: whichever build, it says so truthfully
        assert compiled in ([], sorted(modules))
        assert (running_build() == COMPILED) == bool(compiled)
        assert running_build().startswith(PURE) == (not compiled)


def test_risk_version_names_the_build() -> None:
    env = {**os.environ, "RISK_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "risk", "--version"], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.startswith("risk ") and "rules core: pure Python" in done.stdout
    assert done.stderr == ""


def write_manifest(path: Path, modules: dict[str, str], python: str | None = None) -> None:
    path.write_text(json.dumps({"python": python or sys.implementation.cache_tag, "modules": modules}))


def source_digest(name: str) -> str:
    return hashlib.sha256(risk.build._module_source(name).read_bytes()).hexdigest()


def test_a_build_of_the_current_sources_may_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(risk.build, "MANIFEST", tmp_path / "compiled.json")
    monkeypatch.delenv("RISK_PURE", raising=False)
    write_manifest(risk.build.MANIFEST, {"risk.rules.battle": source_digest("risk.rules.battle")})
    assert compiled_build() == (["risk.rules.battle"], None)


def test_a_changed_source_or_another_python_or_risk_pure_keeps_the_build_from_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(risk.build, "MANIFEST", tmp_path / "compiled.json")
    monkeypatch.delenv("RISK_PURE", raising=False)
    assert compiled_build() == ([], "no compiled build (make compiled)")
    current = source_digest("risk.rules.battle")
    write_manifest(risk.build.MANIFEST, {"risk.rules.battle": current, "risk.rules.game": "0" * 64})
    modules, not_used = compiled_build()
    assert modules == ["risk.rules.battle", "risk.rules.game"]
    assert not_used == "out of date: risk.rules.game changed since the build (make compiled)"
    write_manifest(risk.build.MANIFEST, {"risk.rules.battle": current}, python="cpython-30")
    assert compiled_build()[1] == f"built for cpython-30, not {sys.implementation.cache_tag}"
    write_manifest(risk.build.MANIFEST, {"risk.rules.battle": current})
    monkeypatch.setenv("RISK_PURE", "1")
    assert compiled_build() == (["risk.rules.battle"], "RISK_PURE=1")


def test_a_pure_run_imports_the_sources_even_beside_a_compiled_build() -> None:
    """The finder that turns the compiled build off loads each listed module from its .py."""
    finder = risk.build.SourceOnly(["risk.rules.battle"])
    spec = finder.find_spec("risk.rules.battle", list(importlib.import_module("risk.rules").__path__))
    assert spec is not None and spec.origin is not None and spec.origin.endswith("battle.py")
    assert finder.find_spec("risk.view", None) is None  # not listed: the usual finders decide


def test_risk_pure_imports_every_source_while_a_build_is_under_way() -> None:
    """`make test` tests pure Python while it builds the compiled core: with RISK_PURE=1, a module
    with no manifest yet, or missing from it, still comes from its .py, never an extension module."""
    finder = risk.build.SourceOnly(None)
    for name in ("risk.rules.game", "risk.view", "risk.server.app"):
        package, _, _ = name.rpartition(".")
        spec = finder.find_spec(name, list(importlib.import_module(package).__path__))
        assert spec is not None and spec.origin is not None and spec.origin.endswith(".py"), name
    assert finder.find_spec("json", None) is None  # not ours: the usual finders decide
    done = subprocess.run(
        [sys.executable, "-c", "import sys, risk; print(type(sys.meta_path[0]).__name__)"],
        capture_output=True,
        text=True,
        env={**os.environ, "RISK_PURE": "1"},
        check=True,
    )
    assert done.stdout.strip() == "SourceOnly"


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_named_bot_can_be_subclassed_in_python(name: str) -> None:
    """Bot writers build on the built-in bots (a quick bot with one change, say): the compiled build
    must allow it as the pure one does."""
    base = BOTS[name]
    variant = type(f"My{base.__name__}", (base,), {"name": f"my-{name}"})
    bot = variant(1)
    assert isinstance(bot, base) and bot.name == f"my-{name}"
    game = Game(Rules.preset("2008"), 3, seed=1)
    assert game.is_legal(bot.choose(View(game, game.to_act)))


def test_a_game_takes_its_players_as_any_sequence() -> None:
    """The compiled build checks argument types at the call: the players may be a tuple, as in pure Python."""
    game = Game(Rules.preset("2008"), ("Ann", "Bob", "Cy"), seed=1)
    assert game.players == ("Ann", "Bob", "Cy")


def test_the_frozen_values_pickle_and_copy_on_both_builds() -> None:
    """Worker processes receive rules and send back reports and actions: pickling must work compiled too."""
    from risk.play.simulate import play_game
    from risk.rules.actions import END_TURN, Attack, Place, Resign
    from risk.rules.goal import WORLD_DOMINATION
    from risk.rules.outcome import Outcome

    _, report = play_game(Rules.preset("2008"), ["quick"] * 3, seed=1, max_turns=3)
    rules = Rules.preset("1993").for_game("secret-mission")
    values = [Attack(1, 2, 3), Place(4), Resign(), END_TURN, rules, WORLD_DOMINATION, report]
    values.append(Outcome(1, "won", (1,)))
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value and copy.copy(value) == value


def load_build_tool() -> Any:
    path = Path(__file__).resolve().parent.parent / "tools" / "build_compiled.py"
    spec = importlib.util.spec_from_file_location("build_compiled", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_make_play_builds_only_when_the_build_is_missing_or_out_of_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make play` runs `build_compiled.py --if-needed`: a build of today's sources is kept, anything
    else (none, a changed source, another Python, another list of modules) is built again."""
    tool = load_build_tool()
    manifest = tmp_path / "compiled.json"
    monkeypatch.setattr(tool, "MANIFEST", manifest)
    built = [Path(f"m{i}.so") for i in range(len(tool.COMPILED) + 1)]  # a module each, and the library
    monkeypatch.setattr(tool, "compiled_files", lambda: built)
    assert not tool.up_to_date()  # no build
    current = tool.current_manifest()["modules"]
    write_manifest(manifest, current)
    assert tool.up_to_date()
    write_manifest(manifest, {**current, "risk.rules.game": "0" * 64})
    assert not tool.up_to_date()  # a source changed since
    write_manifest(manifest, current, python="cpython-30")
    assert not tool.up_to_date()
    earlier = {name: digest for name, digest in current.items() if name != "risk.bots.warlord"}
    write_manifest(manifest, earlier)
    assert not tool.up_to_date()  # a module joined the compiled set since
    write_manifest(manifest, current)
    monkeypatch.setattr(tool, "compiled_files", lambda: [])
    assert not tool.up_to_date()  # the extension modules were removed


def _public_callables() -> list[tuple[str, Any, ast.FunctionDef | ast.ClassDef]]:
    """The public API (``import risk``) as (name, object, its definition in the source): its classes,
    their public methods, and its functions."""
    found: list[tuple[str, Any, ast.FunctionDef | ast.ClassDef]] = []
    for name in risk.__all__:
        value = getattr(risk, name)
        value = getattr(value, "__wrapped__", value)  # (load_map is cached)
        module = getattr(value, "__module__", "")
        if not module.startswith("risk.") or not (inspect.isclass(value) or callable(value)):
            continue
        tree = ast.parse(risk.build._module_source(module).read_text(encoding="utf-8"))
        defined = (n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name)
        if (node := next(defined, None)) is None:
            continue
        found.append((name, value, node))
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not member.name.startswith("_"):
                    method = inspect.getattr_static(value, member.name)
                    found.append((f"{name}.{member.name}", method, member))
    return found


@pytest.mark.parametrize(
    ("name", "value", "node"), _public_callables(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_the_public_api_keeps_its_docstrings_and_signatures_on_both_builds(
    name: str, value: Any, node: ast.FunctionDef | ast.ClassDef
) -> None:
    """help(risk.Game) reads the same on both builds: mypyc keeps only a signature of its own, and
    tools/build_compiled.py gives each compiled class and function its docstring too."""
    value = value.fget if isinstance(value, property) else value
    value = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
    doc = ast.get_docstring(node)
    if doc is not None:
        assert inspect.getdoc(value) == doc, name
    if isinstance(node, ast.FunctionDef) and not any(
        isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list
    ):
        written = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        written += [a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None]
        assert list(inspect.signature(value).parameters) == written, name


def test_help_of_the_game_shows_its_docstrings() -> None:
    import pydoc

    text = pydoc.render_doc(risk.Game, renderer=pydoc.plaintext)
    assert "A game of RISK" in text and "Check and apply an action of the player to act" in text
    assert "text(self, " in text and "The action in the notation on this game's board" in text


def test_the_files_make_test_runs_on_both_builds_exist() -> None:
    """tests/tiers.py names them (docs/testing.md): a renamed file would drop out silently."""
    from tiers import BOTH_BUILDS

    here = Path(__file__).resolve().parent
    assert Path(__file__).name in BOTH_BUILDS  # this file's build check runs in every run of make test
    assert sorted(name for name in BOTH_BUILDS if not (here / name).is_file()) == []
