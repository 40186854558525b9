"""Text files the user names (a record to replay, a game to load, a board): read whole, up to a stated
size, every failure a one-line :class:`FileInputError` that names the file and says what is wrong;
and written (a save, a record) whole or not at all (:func:`write_text_file`).

>>> read_text_file("no/such/file.risk", "a game record", 1 << 20)
Traceback (most recent call last):
...
risk.errors.FileInputError: no/such/file.risk: no such file
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import BinaryIO

from risk.errors import FileInputError

MB = 1 << 20


class NotARegularFileError(OSError):
    """A path naming a pipe, a device or a socket: reading one may wait for a writer or never end."""


def file_problem(error: OSError) -> str:
    """What an ``OSError`` from opening or reading a file says, in a few words."""
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(error, NotARegularFileError):
        return "not a regular file (a pipe, a device or a socket): give a file"
    if isinstance(error, PermissionError):
        return "cannot read it (permission denied)"
    return f"cannot read it ({(error.strerror or str(error)).lower()})"


def open_regular_file(path: str | Path) -> BinaryIO:
    """``path`` opened to read bytes, if it is a regular file; else an ``OSError`` (a folder's is
    :class:`IsADirectoryError`, a pipe's or a device's :class:`NotARegularFileError`).

    Opened without blocking, then looked at: a plain ``open`` of a FIFO waits for a writer, forever.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise NotARegularFileError(errno.EINVAL, "not a regular file", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text_file(path: str | Path, what: str, limit: int) -> str:
    """The text of the UTF-8 file ``path`` (a byte-order mark is dropped), at most ``limit`` bytes.

    ``what`` names the kind of file in the message of a file that is too large ("a game record").
    Raises :class:`FileInputError` for a file that is missing, a folder, not a regular file (a pipe
    or a device), unreadable, larger than ``limit``, not UTF-8 or empty (blank space only).
    """
    try:
        with open_regular_file(path) as stream:
            # One byte past the limit tells a file that is too large, without reading all of it.
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


__all__ = ["MB", "NotARegularFileError", "file_problem", "open_regular_file", "read_text_file"]
