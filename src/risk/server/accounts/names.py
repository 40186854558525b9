"""Account names: what a name may be, and the key that makes two names the same.

Two names are the same name when they look alike: the key is the name under Unicode's compatibility
normalisation (NFKC: "ｂｏｂ" is "bob"), case-folded, with each letter mapped to one representative
of the letters it can be mistaken for (Unicode's confusables, through the ``confusable_homoglyphs``
package: the Cyrillic "а" is the Latin "a"; "0" is "o"; "I", "l" and "1" are one), and with runs of
spaces as one. The name is kept as typed (NFKC) and shown as such; the key is unique in the database.
A name that mixes scripts is refused ("Pаul" with a Cyrillic "а").
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata

from confusable_homoglyphs import confusables

MIN_NAME, MAX_NAME = 3, 24
# Letters and digits of any script, and a space, "-", "_" or "." between them.
_ALLOWED = re.compile(r"[^\W_]+(?:[ ._-][^\W_]+)*")
# Names no player may take: they would pass for the server, a deleted player or a bot.
RESERVED = frozenset(
    {"admin", "administrator", "deleted player", "host", "moderator", "risk", "server", "system"}
)


class NameError_(ValueError):
    """A name refused, with the reason in words (shown beside the name's field)."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each letter that can be mistaken for another: its class's representative. The classes join every
    pair Unicode's confusables list (one letter each way) and each ASCII letter with its lower
    case, through and through ("I", "l" and "1" are one class; "O", "o" and "0" another); a class is named
    by its lower-case ASCII letter, else its ASCII digit, else its smallest letter. Made once."""
    parent: dict[str, str] = {}
    seen: set[str] = set()

    def root(letter: str) -> str:
        while parent.get(letter, letter) != letter:
            letter = parent[letter]
        return letter

    def join(one: str, other: str) -> None:
        seen.update((one, other))
        a, b = root(one), root(other)
        if a != b:
            parent[a] = b

    for letter, entries in confusables.confusables_data.items():
        if len(letter) == 1:
            for entry in entries:
                if len(entry["c"]) == 1:
                    join(letter, entry["c"])
    for letter in string.ascii_uppercase:  # (every script's cases would chain "s" to "f", "y" to "r")
        join(letter, letter.lower())
    members: dict[str, list[str]] = {}
    for letter in seen:
        members.setdefault(root(letter), []).append(letter)

    def representative(group: list[str]) -> str:
        return min(
            group, key=lambda c: (not (c.isascii() and c.islower()), not (c.isascii() and c.isdigit()), c)
        )

    return {letter: representative(group) for group in members.values() for letter in group}


def name_key(name: str) -> str:
    """The key under which ``name`` is unique (see the module's text)."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    table = _prototypes()
    # Case folded first ("ДМИТРИЙ" is "Дмитрий"); a name that mixes scripts is refused anyway.
    return "".join(table.get(c, c) for c in text.casefold()).casefold()


def clean_name(name: object) -> str:
    """The name as it is kept (NFKC, spaces trimmed), or :class:`NameError_` saying what is wrong."""
    if not isinstance(name, str):
        raise NameError_("a name is text")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not MIN_NAME <= len(text) <= MAX_NAME:
        raise NameError_(f"a name has {MIN_NAME} to {MAX_NAME} characters")
    if not _ALLOWED.fullmatch(text):
        raise NameError_("a name is letters and digits, with single spaces, '-', '_' or '.' between them")
    if confusables.is_mixed_script(text.replace(" ", "")):
        raise NameError_("a name is written in one script (letters that only look alike are refused)")
    if name_key(text) in _reserved_keys():
        raise NameError_("that name is kept for the server: choose another")
    return text


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(name_key(name) for name in RESERVED)
