"""The package's imports run one way: no import cycle, and no import up the layers (issue 22, item 5).

The layers, lowest first (:data:`LAYERS`): a module imports from its own layer and the layers below,
never from one above. Every module of ``src/risk`` has a place in :data:`PLACES`; a new module without
one fails :func:`test_every_module_has_a_place` (give it one, with a reason if it is not obvious).

What counts as an import, for both checks (the graph is read from the source, nothing is imported):

- ``import`` and ``from ... import`` at the top of a module, relative ones included;
- the same inside a function: a lazy import still makes the module depend on the other one, it only
  defers a cycle to the first call;
- the same under ``if TYPE_CHECKING:``: it never runs, but the module means the other's types (the
  issue counts ``server/app`` <-> ``server/peers``, type-only, among the cycles);
- a module named by its dotted path in a string, as ``importlib.import_module`` tables do (the lazy
  commands of ``risk.cli.main``, the lazy names of ``risk``); a logger's name is not an import.

Importing ``risk.a.b`` also runs the package ``risk.a`` first; that is not counted (a package that
imports its own modules would otherwise be in a cycle with each of them).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# The layers, lowest first: the rows of docs/architecture.md's table "The layers", in its order
# (test_the_documented_layers_are_these checks that the page names these, with the same packages).
LAYERS = (
    "boards and odds",
    "the rules",
    "what a player sees, what was played",
    "bots",
    "many games",
    "front ends",
    "the command",
)

# Where every module of src/risk sits. "risk.x.*" is the package risk.x and every module in it; a
# module's own entry wins over its package's. Each entry is one the page's table names in its layer.
PLACES: dict[str, str] = {
    "risk.maps.*": "boards and odds",
    "risk.odds": "boards and odds",
    "risk.odds_float": "boards and odds",  # the bots' float path of risk.odds, compiled
    "risk.errors": "boards and odds",  # the exceptions every layer raises; imports nothing
    "risk.textfile": "boards and odds",  # reading a text file the user named (boards, records); under maps
    "risk.build": "the rules",  # which build of the rules core runs: imported first by risk
    "risk.rules.*": "the rules",
    "risk.view": "what a player sees, what was played",
    "risk.record": "what a player sees, what was played",
    "risk.narrate": "what a player sees, what was played",
    "risk.rounds": "what a player sees, what was played",  # rounds as players count them
    "risk.history": "what a player sees, what was played",  # one game's charts and luck, from its record
    "risk": "what a player sees, what was played",  # the library's front door: the rules, View, records
    "risk.bots.*": "bots",  # with risk.bots.protocol: bots in other processes
    "risk.play.*": "many games",  # bot-only games, tournaments, batch simulation; where they run
    "risk.env.*": "many games",  # learning environments: bots (and protocol bots) play
    "risk.tui.*": "front ends",
    "risk.server.*": "front ends",
    "risk.cli.*": "the command",
    "risk.__main__": "the command",  # `python -m risk`: the command
}

# Packages of one layer that never import each other: two front ends share the layers below them.
APART = (("risk.tui", "risk.server"),)


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported
    how: str  # "at the top", "in a function", "for type checking" or "by name"
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.how}, {self.where})"


# -- reading the graph -----------------------------------------------------------------------------------
def find_modules(src: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``src``, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def read_imports(src: Path, package: str) -> tuple[dict[str, Path], list[Import]]:
    """The modules of ``package`` and every import between two of them."""
    modules = find_modules(src, package)
    found: list[Import] = []
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        reader = _ImportReader(name, is_package, set(modules), str(path.relative_to(src)))
        reader.visit(tree)
        found += [i for i in reader.imports if i.target != name]
    return modules, found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _ImportReader(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool, modules: set[str], file: str) -> None:
        self.module, self.modules, self.file = module, modules, file
        self.base = module if is_package else module.rpartition(".")[0]  # what "." means here
        self.how = "at the top"
        self.logger_names: set[int] = set()  # ids of the string nodes that name a logger
        self.imports: list[Import] = []

    def _add(self, dotted: str, node: ast.AST, how: str | None = None) -> None:
        # The longest part of ``dotted`` that is a module of the package ("a.b.Name" -> "a.b").
        while dotted and dotted not in self.modules:
            dotted = dotted.rpartition(".")[0]
        if dotted:
            where = f"{self.file}:{getattr(node, 'lineno', 0)}"
            self.imports.append(Import(self.module, dotted, how or self.how, where))

    def _within(self, how: str, nodes: Iterable[ast.AST]) -> None:
        outer, self.how = self.how, how if self.how == "at the top" else self.how
        for node in nodes:
            self.visit(node)
        self.how = outer

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._within("in a function", [*node.decorator_list, node.args, *node.body])

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._within("in a function", [*node.decorator_list, node.args, *node.body])

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            self._within("for type checking", node.body)
            self._within(self.how, node.orelse)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            parts = self.base.split(".")
            parts = parts[: len(parts) - (node.level - 1)]
            origin = ".".join([*parts, *([node.module] if node.module else [])])
        else:
            origin = node.module or ""
        for alias in node.names:
            # `from risk.server import clock` imports the module risk.server.clock.
            self._add(f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in self.modules else origin, node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "getLogger") or (
            isinstance(func, ast.Name) and func.id == "getLogger"
        ):
            self.logger_names |= {id(arg) for arg in node.args}
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        named = isinstance(value, str) and "." in value and value in self.modules
        if named and id(node) not in self.logger_names:
            self._add(value, node, "by name")


# -- the checks ----------------------------------------------------------------------------------------
def place_of(module: str, places: Mapping[str, str]) -> str | None:
    """The layer of ``module``: its own entry, else its nearest package's ``pkg.*`` entry."""
    if module in places:
        return places[module]
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        place = places.get(".".join(parts[:end]) + ".*")
        if place is not None:
            return place
    return None


def upward_imports(
    imports: Iterable[Import], places: Mapping[str, str], layers: tuple[str, ...]
) -> list[Import]:
    """The imports from a module to one in a higher layer (or between two packages kept apart)."""
    wrong = []
    for found in imports:
        source, target = place_of(found.source, places), place_of(found.target, places)
        if source is None or target is None:
            continue  # unplaced: test_every_module_has_a_place says so
        if layers.index(target) > layers.index(source) or _apart(found.source, found.target):
            wrong.append(found)
    return wrong


def _apart(source: str, target: str) -> bool:
    return any((_in(source, a) and _in(target, b)) or (_in(source, b) and _in(target, a)) for a, b in APART)


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def import_cycles(imports: Iterable[Import]) -> list[tuple[list[str], list[Import]]]:
    """Each group of modules that import each other, round a loop (Tarjan's strongly connected
    components), with a shortest loop through it."""
    edges: dict[str, dict[str, Import]] = {}
    for found in imports:
        edges.setdefault(found.source, {}).setdefault(found.target, found)
    loops = []
    for group in _strongly_connected(edges):
        if len(group) > 1:
            loops.append((sorted(group), _loop_through(min(group), group, edges)))
    return loops


def _strongly_connected(edges: dict[str, dict[str, Import]]) -> list[set[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def _loop_through(start: str, group: set[str], edges: dict[str, dict[str, Import]]) -> list[Import]:
    """A shortest loop of imports from ``start`` back to it, inside ``group``."""
    came_by: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target, found in sorted(edges.get(node, {}).items()):
                if target not in group or target in came_by:
                    continue
                came_by[target] = found
                if target == start:
                    loop, at = [], start
                    while True:
                        loop.append(came_by[at])
                        at = came_by[at].source
                        if at == start:
                            return loop[::-1]
                following.append(target)
        frontier = following
    raise AssertionError(f"no loop through {start}")  # a strongly connected group always has one


def _listed(items: Iterable[object]) -> str:
    return "\n  " + "\n  ".join(map(str, items))


# -- the package ---------------------------------------------------------------------------------------
MODULES, IMPORTS = read_imports(SRC, "risk")


def test_every_module_has_a_place() -> None:
    unplaced = [m for m in MODULES if place_of(m, PLACES) is None]
    assert not unplaced, "modules without a layer: add them to PLACES" + _listed(unplaced)
    assert set(PLACES.values()) <= set(LAYERS)
    unused = [p for p in PLACES if not any(m == p or _in(m, p.removesuffix(".*")) for m in MODULES)]
    assert not unused, "PLACES entries for modules that no longer exist" + _listed(unused)


def test_no_import_runs_up_the_layers() -> None:
    wrong = upward_imports(IMPORTS, PLACES, LAYERS)
    assert not wrong, (
        f"imports up the layers ({' < '.join(LAYERS)}), or between front ends kept apart:" + _listed(wrong)
    )


def test_no_import_cycles() -> None:
    loops = import_cycles(IMPORTS)
    assert not loops, "import cycles:\n" + "\n".join(
        f"{', '.join(group)}; for instance:" + _listed(loop) for group, loop in loops
    )


# -- the page that names the layers ----------------------------------------------------------------
ARCHITECTURE_PAGE = SRC.parent / "docs" / "architecture.md"


def documented_layers(page: str) -> list[tuple[str, set[str]]]:
    """The rows of the page's table under "## The layers": each layer's name and the packages and
    modules its second column names (in backticks)."""
    section = page.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    layers = []
    for row in rows[1:]:  # the first is the header; the separator starts with "| ---"
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if not set(cells[0]) <= {"-", " "}:
            layers.append((cells[0], set(re.findall(r"`([\w.]+)`", cells[1]))))
    return layers


def placed_layers(places: Mapping[str, str], layers: tuple[str, ...]) -> list[tuple[str, set[str]]]:
    """Each layer and the packages and modules :data:`PLACES` puts in it by their own entry."""
    return [
        (layer, {name.removesuffix(".*") for name, at in places.items() if at == layer}) for layer in layers
    ]


def test_the_documented_layers_are_these() -> None:
    """docs/architecture.md names the layers of :data:`LAYERS`, in their order, each with the packages
    and modules that :data:`PLACES` puts there: the page a newcomer reads is the layout that is checked."""
    documented = documented_layers(ARCHITECTURE_PAGE.read_text(encoding="utf-8"))
    assert documented == placed_layers(PLACES, LAYERS)


def test_every_placed_package_exists_as_a_package() -> None:
    """A ``risk.x.*`` entry is a package (a folder with ``__init__.py``) whose docstring says what it
    is for."""
    for name in PLACES:
        if name.endswith(".*"):
            init = SRC.joinpath(*name.removesuffix(".*").split("."), "__init__.py")
            assert init.is_file(), name
            docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            assert docstring, f"{init.relative_to(SRC)}: no docstring saying what the package is for"


# -- the server: routers, and the master's interface --------------------------------------------------
SERVER = SRC / "risk" / "server"
LONGEST_FUNCTION = 80  # lines


def test_no_long_function_in_the_app_or_its_routers() -> None:
    """``create_app`` includes routers: no function of the app or a router holds the routes."""
    long = []
    for path in [SERVER / "app.py", *sorted((SERVER / "api").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}: {lines} lines")
    assert not long, f"functions over {LONGEST_FUNCTION} lines:" + _listed(long)


def test_only_the_master_touches_its_private_parts() -> None:
    """The modules plugged into the game master (the clock, the seats, chat, house rules) and the web
    app use its public interface (risk.server.hooks.Table): no other module reads one of its private
    attributes (``master._store``...)."""
    master = SERVER / "master"  # a package: GameMaster's layers, one class a module
    layers = [
        node
        for path in sorted(master.glob("*.py"))
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef)
    ]
    assert "GameMaster" in [layer.name for layer in layers]
    private = {
        name
        for layer in layers
        for node in ast.walk(layer)
        for name in _defined_names(node)
        if name.startswith("_") and not name.startswith("__")
    }
    assert "_store" in private and "_live" in private
    touched = []
    for path in sorted(SERVER.rglob("*.py")):
        if path.parent == master:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            mine = (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            )
            if isinstance(node, ast.Attribute) and node.attr in private and not mine:
                touched.append(f"{path.relative_to(SRC)}:{node.lineno} .{node.attr}")
    assert not touched, "the master's private attributes read elsewhere:" + _listed(touched)


def _defined_names(node: ast.AST) -> list[str]:
    """The names a class defines at ``node``: its methods, and the attributes its methods set on self."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [node.name]
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
        return [node.attr] if isinstance(node.value, ast.Name) and node.value.id == "self" else []
    return []


# -- the checks themselves, on a made-up package ---------------------------------------------------------
FAKE = {
    "__init__.py": "",
    "low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fake.high import Thing\n",
    "helper.py": "import logging\nlog = logging.getLogger('fake.low')\ndef f():\n    from . import high\n",
    "high.py": "import importlib\nfrom fake.other import b\nCOMMANDS = {'go': 'fake.low'}\n",
    "other/__init__.py": "",
    "other/a.py": "import fake.other.b\n",
    "other/b.py": "from fake.other import a\nfrom .a import name\n",
}


def _fake_package(root: Path) -> tuple[dict[str, Path], list[Import]]:
    for name, text in FAKE.items():
        path = root / "fake" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return read_imports(root, "fake")


def test_every_kind_of_import_is_read(tmp_path: Path) -> None:
    modules, imports = _fake_package(tmp_path)
    assert set(modules) == {
        "fake",
        "fake.low",
        "fake.helper",
        "fake.high",
        "fake.other",
        "fake.other.a",
        "fake.other.b",
    }
    assert {(i.source, i.target, i.how) for i in imports} == {
        ("fake.low", "fake.high", "for type checking"),
        ("fake.helper", "fake.high", "in a function"),  # relative; the logger's name is no import
        ("fake.high", "fake.other.b", "at the top"),
        ("fake.high", "fake.low", "by name"),
        ("fake.other.a", "fake.other.b", "at the top"),
        ("fake.other.b", "fake.other.a", "at the top"),  # twice: `from fake.other import a`, `from .a`
    }
    assert all(i.where.startswith("fake/") for i in imports)


def test_imports_up_the_layers_and_cycles_are_found(tmp_path: Path) -> None:
    _, imports = _fake_package(tmp_path)
    places = {"fake": "low", "fake.low": "low", "fake.helper": "low", "fake.high": "high"}
    places["fake.other.*"] = "high"
    wrong = upward_imports(imports, places, ("low", "high"))
    assert {(i.source, i.target) for i in wrong} == {("fake.low", "fake.high"), ("fake.helper", "fake.high")}
    loops = sorted([(i.source, i.target) for i in loop] for _, loop in import_cycles(imports))
    assert loops == [
        [("fake.high", "fake.low"), ("fake.low", "fake.high")],  # closed by a type-only import
        [("fake.other.a", "fake.other.b"), ("fake.other.b", "fake.other.a")],
    ]
    assert place_of("fake.other.a", places) == "high" and place_of("fake.nowhere", places) is None
