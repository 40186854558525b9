"""Every file the `risk` command reads, given wrong: one line on stderr that names the file and says
what is wrong, exit code 2, no traceback.

The kinds of wrong file: missing, a folder, unreadable, not UTF-8, empty, too large. An unreadable
file is one with mode 000. Root reads it all the same (the capabilities CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH), so under root that case runs the command in a child process that has given
those two up: the mode then holds for it as for any user, and the open really fails.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risk.cli.main import app
from risk.maps import MAX_MAP_BYTES
from risk.record import MAX_RECORD_BYTES

PR_CAPBSET_DROP = 24  # prctl(2)
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2  # capability.h

# Each command that reads a file: the arguments that name it, the suffix it needs, its size limit
# (None: a bot program, run rather than read, has no text to decode and no size limit).
COMMANDS: dict[str, tuple[Callable[[str, str], list[str]], str, int | None]] = {
    "replay": (lambda path, out: ["replay", path], ".risk", MAX_RECORD_BYTES),
    "play --load": (lambda path, out: ["play", "--load", path], ".risk", MAX_RECORD_BYTES),
    "map": (lambda path, out: ["map", path], ".json", MAX_MAP_BYTES),
    "simulate --map": (
        lambda path, out: ["simulate", "--map", path, "--record", out],
        ".json",
        MAX_MAP_BYTES,
    ),
    "tournament --map": (
        lambda path, out: ["tournament", "--bots", "quick,quick,quick", "--map", path, "--out", out],
        ".json",
        MAX_MAP_BYTES,
    ),
    "tournament --bots": (
        lambda path, out: ["tournament", "--bots", f"{path},quick,quick", "--games", "1", "--out", out],
        ".py",
        None,
    ),
}

# What the error says for each kind of wrong file.
KINDS = {
    "missing": "no such file|no bot program at",
    "folder": "is a folder",
    "unreadable": r"cannot read it \(permission denied\)",
    "not-utf8": r"not UTF-8 text \(byte 0xff at offset 0\)",
    "empty": "is empty",
    "too-large": "too large: .* is at most [0-9]+ MB",
}
TEXT_ONLY = {"not-utf8", "too-large"}  # a program may hold any bytes, of any size


def make_wrong_file(folder: Path, kind: str, suffix: str, limit: int | None) -> Path:
    path = folder / f"wrong{suffix}"
    if kind == "folder":
        path.mkdir()
    elif kind == "unreadable":
        path.write_text("print('a bot, a record or a map, if only it could be read')\n")
        path.chmod(0)
    elif kind == "not-utf8":
        path.write_bytes(b"\xff\xfe")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "too-large":
        assert limit is not None
        with path.open("wb") as stream:
            stream.truncate(limit + 1)  # sparse: quick to make, a real file of that size to read
    return path


def give_up_reading_everything() -> None:
    """In a child of root, before it runs the command: drop what lets root read any file.

    Root's capabilities after exec are its bounding set, so dropping from that set is enough.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_risk(args: list[str], *, bound_by_modes: bool) -> tuple[int, str]:
    """Exit code and standard error of `risk ARGS`: in this process, or (root) in a child for which
    file modes hold."""
    if not bound_by_modes:
        result = CliRunner().invoke(app, args)
        return result.exit_code, result.stderr
    done = subprocess.run(
        [sys.executable, "-m", "risk", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        preexec_fn=give_up_reading_everything,
    )
    return done.returncode, done.stderr


# Every kind on every command, but a bot program is no text: a compiled one is not UTF-8, and may be large.
CASES = [
    (command, kind)
    for command, (_, _, limit) in COMMANDS.items()
    for kind in KINDS
    if limit is not None or kind not in TEXT_ONLY
]


@pytest.mark.parametrize(("command", "kind"), CASES)
def test_a_wrong_file_gives_one_line_and_exit_2(tmp_path: Path, command: str, kind: str) -> None:
    build_args, suffix, limit = COMMANDS[command]
    path = make_wrong_file(tmp_path, kind, suffix, limit)
    as_root = kind == "unreadable" and os.geteuid() == 0
    code, err = run_risk(build_args(str(path), str(tmp_path / "out")), bound_by_modes=as_root)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("risk: error: "), err
    assert str(path) in lines[0] and re.search(KINDS[kind], lines[0]), lines[0]
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_a_record_with_a_byte_order_mark_replays(tmp_path: Path) -> None:
    code = CliRunner().invoke(app, ["simulate", "--max-turns", "3", "--record", str(tmp_path)]).exit_code
    path = next(tmp_path.glob("*.risk"))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # as some editors save UTF-8
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert code == 0 and result.exit_code == 0 and json.loads(result.stdout)["valid"] is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "is not a board"),
        ('{"name": "x", "continents": [1], "territories": [], "links": []}', "is not a board"),
        (
            '{"name": "x", "continents": [{"name": "A", "bonus": "two"}], "territories": [], "links": []}',
            "is not a board",
        ),
        ("{", "is not valid JSON"),
    ],
)
def test_a_map_file_that_is_no_board_gives_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text)
    result = CliRunner().invoke(app, ["map", str(path)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], result.stderr
