"""The terminal game stays small enough to hold in one's head (issue 41 item 4): no class in
``src/risk/tui/`` is over 600 lines and no function (or method) over 80, measured by ``ast`` from
the ``def``/``class`` line to the last line of its body, docstring and comments included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TUI = Path(__file__).resolve().parents[1] / "src" / "risk" / "tui"
MAX_CLASS_LINES = 600
MAX_FUNCTION_LINES = 80


def oversized(source: str, where: str) -> list[str]:
    """The classes and functions in ``source`` longer than their limit, as 'where:line name (N lines)'."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            limit = MAX_CLASS_LINES
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            limit = MAX_FUNCTION_LINES
        else:
            continue
        assert node.end_lineno is not None
        lines = node.end_lineno - node.lineno + 1
        if lines > limit:
            found.append(f"{where}:{node.lineno} {node.name} ({lines} lines, at most {limit})")
    return found


def tui_modules() -> list[Path]:
    return sorted(TUI.glob("*.py"))


def function_source(name: str, lines: int, indent: str = "") -> str:
    """A function of exactly ``lines`` lines (its ``def`` and a body of assignments)."""
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))
    return f"{indent}def {name}(self):\n{body}"


def test_the_measure_finds_a_long_function_and_a_long_class() -> None:
    assert oversized(function_source("long", 81), "f.py") == ["f.py:1 long (81 lines, at most 80)"]
    assert oversized(function_source("fits", 80), "f.py") == []
    # 1 + 8 * 75 = 601 lines: the class is over, none of its methods is.
    big = "class Big:\n" + "".join(function_source(f"m{i}", 75, "    ") for i in range(8))
    assert oversized(big, "c.py") == ["c.py:1 Big (601 lines, at most 600)"]
    assert oversized(big[: big.rindex("    def")], "c.py") == []


def test_the_package_is_measured() -> None:
    names = {path.name for path in tui_modules()}
    assert {"session.py", "questions.py", "meta.py", "command.py", "render.py"} <= names


@pytest.mark.parametrize("path", tui_modules(), ids=lambda path: path.name)
def test_no_class_over_600_lines_and_no_function_over_80(path: Path) -> None:
    assert oversized(path.read_text(encoding="utf-8"), f"src/risk/tui/{path.name}") == []
