"""The web server stays in pieces one can hold in one's head (issue 41): no class over 600 lines and no
function over 80 lines anywhere in ``src/risk/server/``, measured on the source by ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "src" / "risk" / "server"
MAX_CLASS_LINES = 600
MAX_FUNCTION_LINES = 80


def _lengths(kinds: tuple[type[ast.AST], ...]) -> dict[str, int]:
    """Every definition of ``kinds`` under server/, by ``path:line name``, with its length in lines
    (decorators and docstring included)."""
    found: dict[str, int] = {}
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, kinds):
                assert isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                assert node.end_lineno is not None
                found[f"{path.relative_to(SERVER)}:{node.lineno} {node.name}"] = node.end_lineno - first + 1
    return found


def test_the_measure_sees_the_server() -> None:
    functions = _lengths((ast.FunctionDef, ast.AsyncFunctionDef))
    classes = _lengths((ast.ClassDef,))
    assert len(functions) > 300 and len(classes) > 50  # the walk reached every module, packages too
    assert any(name.endswith(" submit_as") for name in functions)
    assert any(name.endswith(" GameMaster") for name in classes)


def test_no_class_over_600_lines() -> None:
    too_long = {name: n for name, n in _lengths((ast.ClassDef,)).items() if n > MAX_CLASS_LINES}
    assert too_long == {}


def test_no_function_over_80_lines() -> None:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    too_long = {name: n for name, n in _lengths(kinds).items() if n > MAX_FUNCTION_LINES}
    assert too_long == {}
