"""The house in numbers: how big, how private, how typed and how tidy the code of ``src/risk`` is.

    .venv/bin/python tools/house_numbers.py                 # this checkout
    .venv/bin/python tools/house_numbers.py --root ../old   # another checkout (say, main before a change)
    .venv/bin/python tools/house_numbers.py --json --no-mypy

Prints, for ``ROOT/src/risk``:

- the largest classes and functions, in lines (first line to last, docstring and comments included);
- private reads across modules: ``thing._name`` where ``thing`` is not ``self`` or ``cls`` (ruff's
  SLF001), and ``from module import _name``, counted inside the rules core and outside it;
- mypy's reach, from ``[tool.mypy]`` in ``ROOT/pyproject.toml``: the share of lines in modules it
  checks with ``--strict``'s settings (a module is strict when an override names it with every
  setting of ``STRICT_SETTINGS``); with mypy (unless ``--no-mypy``), the errors that
  ``mypy --strict`` finds over all of ``risk`` (running the tools of the Python that runs this);
- the files ``ruff format --check`` leaves alone, of ``src tests benchmarks tools examples``.

Lines are physical lines of the files (``wc -l``).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMATTED_FOLDERS = ("src", "tests", "benchmarks", "tools", "examples")
# The settings --strict turns on that a per-module override can set (mypy takes `strict` only globally).
STRICT_SETTINGS = (
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
)
RULES_CORE = "risk.rules"


@dataclass(frozen=True)
class Sized:
    name: str  # module:qualified name
    lines: int


@dataclass
class Numbers:
    root: str
    modules: int = 0
    lines: int = 0
    largest_classes: list[Sized] = field(default_factory=list)
    largest_functions: list[Sized] = field(default_factory=list)
    private_reads_in_rules: int = 0
    private_reads_elsewhere: int = 0
    private_reads_most: list[tuple[str, int]] = field(default_factory=list)  # attribute, reads
    private_reads_outside_rules: list[str] = field(default_factory=list)  # where, up to 20
    strict_lines: int = 0
    unchecked_modules: list[str] = field(default_factory=list)  # not strict, largest first
    mypy_strict_errors: int | None = None
    format_checked: int = 0
    format_would_change: int = 0


def module_files(src: Path) -> dict[str, Path]:
    """Every module of ``src/risk`` by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted((src / "risk").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def sized_definitions(module: str, tree: ast.Module) -> tuple[list[Sized], list[Sized]]:
    """The classes and the functions (methods included) of one module, with their lengths."""
    classes: list[Sized] = []
    functions: list[Sized] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                name = f"{prefix}{child.name}"
                (classes if isinstance(child, ast.ClassDef) else functions).append(
                    Sized(f"{module}:{name}", lines)
                )
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return classes, functions


def private_reads(tree: ast.Module) -> list[tuple[str, int]]:
    """Reads of another object's private part: ``x._name`` (x not self or cls), ``from m import _name``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not own:
                found.append((node.attr, node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found += [(alias.name, node.lineno) for alias in node.names if _is_private(alias.name)]
    return found


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@dataclass(frozen=True)
class MypyReach:
    """What ``[tool.mypy]`` checks: its targets, and the module patterns of its overrides."""

    packages: list[str]  # checked with every module in them
    modules: list[str]  # checked alone
    strict: list[str]  # patterns checked with every setting of STRICT_SETTINGS
    unreported: list[str]  # patterns read for their types only (follow_imports silent or skip, ignore_errors)

    def is_strict(self, module: str) -> bool:
        """Checked by mypy with --strict's settings: a target of the run, or a module the targets
        import that a strict override names by its own name; with its errors reported."""
        if _matches(module, self.unreported) or not _matches(module, self.strict):
            return False
        in_package = any(module == package or module.startswith(package + ".") for package in self.packages)
        return in_package or module in self.modules or module in self.strict


def _matches(module: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatchcase(module, pattern) for pattern in patterns)


def mypy_settings(pyproject: Path) -> MypyReach:
    config = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("mypy", {})
    reach = MypyReach(config.get("packages", []), config.get("modules", []), [], [])
    if config.get("strict"):
        reach.strict.append("*")
    for override in config.get("overrides", []):
        patterns = override["module"]
        patterns = [patterns] if isinstance(patterns, str) else patterns
        if all(override.get(setting) for setting in STRICT_SETTINGS):
            reach.strict.extend(patterns)
        if override.get("follow_imports") in ("silent", "skip") or override.get("ignore_errors"):
            reach.unreported.extend(patterns)
    return reach


def tool(name: str) -> list[str]:
    """A tool of the Python that runs this (its virtual environment's), else the one on PATH."""
    beside = Path(sys.executable).parent / name
    return [str(beside)] if beside.exists() else [name]


def mypy_strict_errors(root: Path) -> int:
    """The errors of ``mypy --strict`` over the whole package (its cache kept out of the checkout)."""
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:12]
    cache = Path(os.environ.get("TMPDIR", "/tmp")) / f"house-numbers-mypy-{digest}"
    command = [*tool("mypy"), "--strict", "--cache-dir", str(cache), "-p", "risk"]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    summary = re.search(r"Found (\d+) errors?", result.stdout)
    if summary:
        return int(summary.group(1))
    if result.returncode == 0:
        return 0
    raise RuntimeError(f"mypy failed:\n{result.stdout}{result.stderr}")


def format_check(root: Path) -> tuple[int, int]:
    """(files checked, files ``ruff format`` would change)."""
    folders = [folder for folder in FORMATTED_FOLDERS if (root / folder).is_dir()]
    command = [*tool("ruff"), "format", "--check", "--no-cache", *folders]
    result = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    output = result.stdout + result.stderr
    would_change = len(re.findall(r"^Would reformat: ", output, re.MULTILINE))
    unchanged = re.search(r"(\d+) files? already formatted", output)
    return would_change + (int(unchanged.group(1)) if unchanged else 0), would_change


def measure(root: Path, most: int, run_mypy: bool) -> Numbers:
    src = root / "src"
    numbers = Numbers(str(root))
    reach = mypy_settings(root / "pyproject.toml")
    classes: list[Sized] = []
    functions: list[Sized] = []
    reads: Counter[str] = Counter()
    unchecked: list[tuple[int, str]] = []
    for module, path in module_files(src).items():
        lines = line_count(path)
        numbers.modules += 1
        numbers.lines += lines
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        module_classes, module_functions = sized_definitions(module, tree)
        classes += module_classes
        functions += module_functions
        for name, lineno in private_reads(tree):
            reads[name] += 1
            if module == RULES_CORE or module.startswith(RULES_CORE + "."):
                numbers.private_reads_in_rules += 1
            else:
                numbers.private_reads_elsewhere += 1
                if len(numbers.private_reads_outside_rules) < 20:
                    numbers.private_reads_outside_rules.append(f"{path.relative_to(src)}:{lineno} {name}")
        if reach.is_strict(module):
            numbers.strict_lines += lines
        else:
            unchecked.append((lines, module))
    numbers.largest_classes = sorted(classes, key=lambda s: -s.lines)[:most]
    numbers.largest_functions = sorted(functions, key=lambda s: -s.lines)[:most]
    numbers.private_reads_most = reads.most_common(most)
    numbers.unchecked_modules = [f"{module} ({lines})" for lines, module in sorted(unchecked, reverse=True)]
    if run_mypy:
        numbers.mypy_strict_errors = mypy_strict_errors(root)
    numbers.format_checked, numbers.format_would_change = format_check(root)
    return numbers


def report(numbers: Numbers) -> str:
    share = 100 * numbers.strict_lines / numbers.lines if numbers.lines else 0.0
    clean = numbers.format_checked - numbers.format_would_change
    out = [
        f"The house in numbers: {numbers.root}/src/risk, {numbers.modules} modules, {numbers.lines} lines",
        "",
        "Largest classes (lines):",
        *(f"  {s.lines:6}  {s.name}" for s in numbers.largest_classes),
        "Largest functions (lines):",
        *(f"  {s.lines:6}  {s.name}" for s in numbers.largest_functions),
        "",
        f"Private reads across modules: {numbers.private_reads_in_rules} inside {RULES_CORE}, "
        f"{numbers.private_reads_elsewhere} outside it",
        "  most read: " + ", ".join(f"{name} {count}" for name, count in numbers.private_reads_most),
        *(f"  outside {RULES_CORE}: {where}" for where in numbers.private_reads_outside_rules),
        "",
        f"mypy, --strict's settings: {numbers.strict_lines} of {numbers.lines} lines ({share:.1f}%); "
        f"{len(numbers.unchecked_modules)} modules not checked strictly",
    ]
    if numbers.unchecked_modules:
        shown = numbers.unchecked_modules[:12]
        more = len(numbers.unchecked_modules) - len(shown)
        out.append("  largest unchecked: " + ", ".join(shown) + (f", and {more} more" if more else ""))
    if numbers.mypy_strict_errors is not None:
        out.append(f"mypy --strict -p risk: {numbers.mypy_strict_errors} errors")
    out += [
        "",
        f"ruff format --check ({' '.join(FORMATTED_FOLDERS)}): {clean} of {numbers.format_checked} files "
        f"clean, {numbers.format_would_change} would change",
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--most", type=int, default=10, help="how many of each largest to list")
    parser.add_argument("--no-mypy", action="store_true", help="skip running mypy --strict (the slow part)")
    parser.add_argument("--json", action="store_true", help="the numbers as JSON")
    args = parser.parse_args(argv)
    numbers = measure(args.root.resolve(), args.most, run_mypy=not args.no_mypy)
    print(json.dumps(asdict(numbers), indent=2) if args.json else report(numbers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
