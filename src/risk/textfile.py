"""Text files the user names (a record to replay, a game to load, a board): read whole, up to a stated
size, every failure a one-line :class:`FileInputError` that names the file and says what is wrong;
and written (a save, a record) whole or not at all (:func:`write_text_file`).

>>> read_text_file("no/such/file.risk", "a game record", 1 << 20)
Traceback (most recent call last):
...
risk.errors.FileInputError: no/such/file.risk: no such file
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from risk.errors import FileInputError

MB = 1 << 20


def file_problem(error: OSError) -> str:
    """What an ``OSError`` from opening or reading a file says, in a few words."""
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(error, PermissionError):
        return "cannot read it (permission denied)"
    return f"cannot read it ({(error.strerror or str(error)).lower()})"


def read_text_file(path: str | Path, what: str, limit: int) -> str:
    """The text of the UTF-8 file ``path`` (a byte-order mark is dropped), at most ``limit`` bytes.

    ``what`` names the kind of file in the message of a file that is too large ("a game record").
    Raises :class:`FileInputError` for a file that is missing, a folder, unreadable, larger than
    ``limit``, not UTF-8 or empty (blank space only).
    """
    try:
        with open(path, "rb") as stream:
            # One byte past the limit tells a file that is too large, without reading all of it
            # (a pipe or a device has no size to ask for).
            data = stream.read(limit + 1)
    except OSError as error:
        raise FileInputError(f"{path}: {file_problem(error)}") from None
    if len(data) > limit:
        raise FileInputError(f"{path}: too large: {what} is at most {_size(limit)}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileInputError(
            f"{path}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None
    if not text.strip():
        raise FileInputError(f"{path}: is empty")
    return text


def write_text_file(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8, whole or not at all: it is written to a temporary file
    beside ``path`` and renamed over it, so a failure (a full disk, text that is not UTF-8) never
    leaves an empty or half-written file, and a file already there keeps its last whole text.
    Raises ``UnicodeEncodeError`` (before any file is touched) or ``OSError``."""
    data = text.encode("utf-8")
    path = Path(path)
    # A new name beside it ("x" refuses one that exists), made with the usual permissions (umask).
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with open(temporary, "xb") as stream:
            stream.write(data)
        if path.exists():  # a file already there keeps its permissions
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _size(limit: int) -> str:
    return f"{limit // MB} MB" if limit % MB == 0 else f"{limit} bytes"


__all__ = ["MB", "file_problem", "read_text_file"]
