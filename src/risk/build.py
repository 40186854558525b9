"""Which build of the rules core runs: compiled by mypyc (docs/compiled.md) or pure Python.

``make compiled`` puts an extension module beside each compiled source, and a manifest,
``risk/compiled.json``, that lists the compiled modules with the SHA-256 of the source each was
built from. Python imports an extension before a ``.py`` of the same name; this module, imported
first by ``risk/__init__.py`` and never compiled, turns that off (every module then comes from
its ``.py``) when ``RISK_PURE=1``, when the manifest is for another Python, or when a source has
changed since the build: an out-of-date build never runs. The compiled modules share native code,
so it is all of them or none.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "compiled.json"
COMPILED = "compiled (mypyc)"
PURE = "pure Python"


def _module_source(name: str) -> Path:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def compiled_build() -> tuple[list[str], str | None]:
    """The compiled modules and, if they must not run, why not (None: they may)."""
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], "no compiled build (make compiled)"
    except (OSError, ValueError) as error:
        return [], f"unreadable {MANIFEST.name}: {error}"
    modules: dict[str, str] = manifest.get("modules", {})
    if os.environ.get("RISK_PURE") == "1":
        return list(modules), "RISK_PURE=1"
    if manifest.get("python") != sys.implementation.cache_tag:
        return list(modules), f"built for {manifest.get('python')}, not {sys.implementation.cache_tag}"
    for name, digest in modules.items():
        try:
            current = hashlib.sha256(_module_source(name).read_bytes()).hexdigest()
        except OSError:
            current = None
        if current != digest:
            return list(modules), f"out of date: {name} changed since the build (make compiled)"
    return list(modules), None


class SourceOnly(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files only, never their extension modules (``names`` None:
    every module of the package)."""

    def __init__(self, names: list[str] | None) -> None:
        self.names = None if names is None else frozenset(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if (
            fullname not in self.names
            if self.names is not None
            else not fullname.startswith(f"{__package__}.")
        ):
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for folder in path if path is not None else sys.path:
            spec = importlib.machinery.FileFinder(folder, loader).find_spec(fullname)
            if spec is not None:
                return spec
        return None


_modules, not_used = compiled_build()
if os.environ.get("RISK_PURE") == "1":  # every module, listed or not: a build under way (`make test`
    sys.meta_path.insert(0, SourceOnly(None))  # builds while it tests pure Python) has no manifest yet
elif not_used is not None and _modules:
    sys.meta_path.insert(0, SourceOnly(_modules))


def running_build() -> str:
    """What runs: "compiled (mypyc)" or "pure Python", with why a build present is not used."""
    loaded = sys.modules.get("risk.rules.game")  # the file it came from, or the one it would come from
    spec = None if loaded is not None else importlib.util.find_spec("risk.rules.game")
    origin = loaded.__file__ if loaded is not None else spec.origin if spec is not None else None
    if not (origin or "").endswith(".py"):
        return COMPILED
    return PURE if not _modules or not_used is None else f"{PURE} ({not_used})"
