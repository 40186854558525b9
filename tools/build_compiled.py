"""Build the compiled rules core: mypyc over the modules in ``COMPILED``, from the same typed source.

    .venv/bin/python tools/build_compiled.py          # (`make compiled`) build, or say why it cannot
    .venv/bin/python tools/build_compiled.py --clean  # remove the compiled build: pure Python again
    .venv/bin/python tools/build_compiled.py --if-needed  # (`make play`) build only when out of date
    .venv/bin/python tools/build_compiled.py --can-build  # (`make test`) exit 0 if it can, 3 if not

The extension modules land next to their sources in ``src/risk`` (Python imports an extension
module before a ``.py`` of the same name), the C sources and objects in ``build/mypyc``. The
manifest ``src/risk/compiled.json`` lists the compiled modules with the SHA-256 of the source each
was built from: ``risk/__init__.py`` reads it and, when a source has changed since (or when
``RISK_PURE=1``), imports every module from its ``.py`` instead, so an out-of-date build never runs
(docs/compiled.md). Needs a C compiler and Python's headers; exit status 3 says they are missing
(`make test` then tests the pure build only).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "risk"
BUILD = ROOT / "build" / "mypyc"
MANIFEST = PACKAGE / "compiled.json"
# The shared library (src/risk_core__mypyc*.so) that holds every compiled module, each module's own
# extension a small shim. At the top level: mypyc gives compiled packages their __path__ from its folder.
GROUP = "risk_core"
CANNOT_BUILD = 3

# The compiled set, as paths under src/: the rules core, the map, the odds, the bots' hot paths and the
# environments' observation and action space (built at every step of a learning agent's game).
# Not compiled: risk/__init__.py (it chooses the build), the modules outside the rules core and the
# bots, and those named in docs/compiled.md with the reason.
COMPILED: tuple[str, ...] = (
    "risk/rules/__init__.py",
    "risk/rules/actions.py",
    "risk/rules/battle.py",
    "risk/rules/determinise.py",
    "risk/rules/fortify.py",
    "risk/rules/game.py",
    "risk/rules/goal.py",
    "risk/rules/hooks.py",
    "risk/rules/legal.py",
    "risk/rules/missions.py",
    "risk/rules/options.py",
    "risk/rules/outcome.py",
    "risk/rules/reinforce.py",
    "risk/rules/resign.py",
    "risk/rules/setup.py",
    "risk/rules/state.py",
    "risk/rules/variants/__init__.py",
    "risk/rules/variants/active.py",
    "risk/rules/variants/base.py",
    "risk/rules/variants/capital.py",
    "risk/rules/variants/card_cap.py",
    "risk/rules/variants/experts.py",
    "risk/rules/variants/fog.py",
    "risk/rules/variants/missions.py",
    "risk/rules/variants/neutrals.py",
    "risk/rules/variants/team.py",
    "risk/maps/__init__.py",
    "risk/odds_float.py",
    "risk/view.py",
    "risk/play/simulate.py",
    "risk/bots/base.py",
    "risk/bots/quick.py",
    "risk/bots/heuristic.py",
    "risk/bots/aims.py",
    "risk/bots/battle_odds.py",
    "risk/bots/expert_dice.py",
    "risk/bots/neutrals.py",
    "risk/bots/teams.py",
    "risk/bots/search.py",
    "risk/bots/warlord.py",
    "risk/bots/expert.py",
    "risk/env/actions.py",
    "risk/env/observation.py",
)


def module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# What the build imports (mypyc, setuptools) and the types the compiled modules' imports need (numpy,
# for risk.odds), as pyproject.toml pins them: `make` installs these first, so that the build starts
# while the rest of the packages install (the same versions: nothing the build uses changes under it).
BUILD_NEEDS = ("setuptools", "wheel", "mypy", "mypy_extensions", "numpy")


def build_requirements() -> list[str]:
    """The requirement strings of BUILD_NEEDS in pyproject.toml (build system, dependencies, dev extra)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["dev"],
    ]
    found: dict[str, str] = {}
    for requirement in listed:
        name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("-", "_")
        if name in BUILD_NEEDS:
            found.setdefault(name, requirement)
    missing = [name for name in BUILD_NEEDS if name not in found]
    if missing:
        raise SystemExit(f"build_compiled: pyproject.toml does not list {missing}")
    return [found[name] for name in BUILD_NEEDS]


def missing_tools() -> str | None:
    """What the build needs and this machine lacks, or None."""
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler (cc or gcc)"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include}: on Debian, apt-get install python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "no mypyc (pip install mypy)"
    return None


def compiled_files() -> list[Path]:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted([*PACKAGE.rglob(f"*{suffix}"), *SRC.glob(f"{GROUP}__mypyc*{suffix}")])


def clean() -> None:
    for path in compiled_files():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)
    shutil.rmtree(BUILD, ignore_errors=True)


def current_manifest() -> dict[str, object]:
    """The manifest a build of today's sources for this Python has."""
    return {
        "python": sys.implementation.cache_tag,
        "modules": {module_name(path): source_digest(SRC / path) for path in COMPILED},
    }


def up_to_date() -> bool:
    """Whether the build present is this Python's, of exactly ``COMPILED``, from today's sources."""
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    # An extension module each, and the shared library.
    return manifest == current_manifest() and len(compiled_files()) > len(COMPILED)


@contextlib.contextmanager
def quiet(log: Path) -> Iterator[None]:
    """Standard output and error, this process's and its children's (the C compiler), into ``log``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with log.open("wb") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


def docstrings() -> dict[tuple[str, str | None, str | None], str]:
    """The docstrings of the compiled modules, by (module, class or None, function or None)."""
    found: dict[tuple[str, str | None, str | None], str] = {}
    for path in COMPILED:
        module = module_name(path)
        for node in ast.parse((SRC / path).read_text(encoding="utf-8")).body:
            members = node.body if isinstance(node, ast.ClassDef) else [node]
            owner = node.name if isinstance(node, ast.ClassDef) else None
            if owner is not None and (doc := ast.get_docstring(node)):
                found[(module, owner, None)] = doc
            functions = [m for m in members if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            for function in functions:
                if doc := ast.get_docstring(function):
                    found[(module, owner, function.name)] = doc
    return found


def c_string(text: str) -> str:
    """``text`` as the inside of a C string literal (UTF-8, as CPython reads a docstring)."""
    escaped = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        escaped.append(f"\\{byte:03o}" if byte >= 0x80 or byte < 0x20 or char in '"\\?' else char)
    return "".join(escaped)


def keep_docstrings(c_file: Path) -> None:
    """mypyc gives a compiled function, method or class only its signature (``__text_signature__``) for
    a docstring: append each one's docstring from the source in the generated C, so that
    ``help(risk.Game)`` reads as on the pure build. The C names are mypyc's: the module's shortest
    unique dotted suffix, the class and the name joined by ``___`` (``game___Game___apply``); a name two
    docstrings could have is left alone."""
    docs: dict[str, str | None] = {}
    for (module, owner, name), doc in docstrings().items():
        parts = module.split(".")
        for start in range(len(parts)):
            ident = "___".join([*parts[start:], *([owner] if owner else []), *([name] if name else [])])
            docs[ident] = doc if docs.get(ident, doc) == doc else None

    def method(match: re.Match[str]) -> str:
        doc = docs.get(match["ident"])
        sig, note = match["sig"] or "", match["note"] or ""
        return match[0] if doc is None else f'{match["head"]}PyDoc_STR("{sig}{c_string(doc)}"){note}}}'

    def class_doc(match: re.Match[str]) -> str:
        doc = docs.get(match["ident"])
        return match[0] if doc is None else f'{match["head"]}PyDoc_STR("{match["sig"] or ""}{c_string(doc)}")'

    def getter(match: re.Match[str]) -> str:
        doc = docs.get(f"{match['ident']}___{match['name']}")
        return match[0] if doc is None else f'{match["head"]}"{c_string(doc)}", NULL}}'

    text = c_file.read_text(encoding="utf-8")
    text = re.sub(
        r"(?P<head>\(PyCFunction\)CPyPy_(?P<ident>\w+),\s*[A-Z_| ]+,\s*)"
        r'(?:PyDoc_STR\("(?P<sig>(?:[^"\\]|\\.)*?\\n--\\n\\n)"\)|NULL)'
        r"(?P<note>\s*/\* docstring \*/)?\}",
        method,
        text,
    )
    text = re.sub(
        r"(?P<head>static PyTypeObject CPyType_(?P<ident>\w+)_template_ = \{[^}]*?\.tp_doc = )"
        r'(?:PyDoc_STR\("(?P<sig>(?:[^"\\]|\\.)*?\\n--\\n\\n)"\)|NULL)',
        class_doc,
        text,
    )
    text = re.sub(
        r'(?P<head>\{"(?P<name>\w+)",\s*\(getter\)(?P<ident>\w+)_get_(?P=name),\s*'
        r"(?:\(setter\)\w+|NULL),\s*)NULL,\s*NULL\}",
        getter,
        text,
    )
    c_file.write_text(text, encoding="utf-8")


def parallel_build_ext() -> type:
    """setuptools' ``build_ext``, compiling the C files of one extension side by side. mypyc's
    ``multi_file`` build writes a C file a module (59 files, the largest about 1 MB) where one file held
    them all (31 MB); setuptools compiles an extension's files one after another, on one core. Measured
    on 2 cores: 108-118 s and 170-180 CPU-s for the build, against about 290 s and 295 CPU-s for one
    file, and the code is not slower (docs/compiled.md)."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class ParallelBuildExt(build_ext):  # type: ignore[misc]  # setuptools is untyped here
        def build_extensions(self) -> None:
            serial = self.compiler.compile

            def compile_side_by_side(sources: list[str], *args: object, **kwargs: object) -> list[str]:
                with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                    futures = [pool.submit(serial, [source], *args, **kwargs) for source in sources]
                    return [obj for future in futures for obj in future.result()]

            self.compiler.compile = compile_side_by_side
            super().build_extensions()

    return ParallelBuildExt


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    BUILD.mkdir(parents=True, exist_ok=True)
    # mypy's own settings for the build (the project's [tool.mypy] lists packages, which would be
    # compiled too): the strict check itself is `make test`'s mypy run.
    config = BUILD / "mypy.ini"
    # The environments' modules (risk.env) import Gymnasium, an optional extra ("research"): where it is
    # not installed they compile all the same (its names untyped), and import only where it is.
    config.write_text(
        "[mypy]\npython_version = 3.11\n[mypy-gymnasium.*,pettingzoo.*]\nignore_missing_imports = True\n"
    )
    os.chdir(SRC)
    extensions = mypycify(
        ["--config-file", str(config), "--cache-dir", str(BUILD / "mypy_cache"), *COMPILED],
        opt_level="3",
        group_name=GROUP,
        multi_file=True,  # a C file a module, compiled side by side (parallel_build_ext)
        target_dir=str(BUILD),
    )
    for c_file in BUILD.glob("*.c"):
        keep_docstrings(c_file)
    with tempfile.TemporaryDirectory() as temp:
        setup(
            name="risk-compiled",
            ext_modules=extensions,
            cmdclass={"build_ext": parallel_build_ext()},
            script_args=[
                "--quiet",
                "build_ext",
                "--inplace",
                "--parallel",  # the extensions (a small shim a module) side by side too
                str(os.cpu_count() or 1),
                "--build-temp",
                temp,
                "--build-lib",
                temp,
            ],
        )
    MANIFEST.write_text(json.dumps(current_manifest(), indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled build")
    parser.add_argument(
        "--if-needed", action="store_true", help="build only when the build present is missing or out of date"
    )
    parser.add_argument(
        "--can-build", action="store_true", help="build nothing: exit 0 if this machine can build, 3 if not"
    )
    parser.add_argument(
        "--requirements", action="store_true", help="build nothing: print the packages the build needs"
    )
    args = parser.parse_args()
    if args.requirements:
        print(" ".join(build_requirements()))
        return
    if args.can_build:
        if (missing := missing_tools()) is not None:
            print(f"build_compiled: cannot build the compiled core: {missing}", file=sys.stderr)
            sys.exit(CANNOT_BUILD)
        return
    if args.clean:
        clean()
        return
    if args.if_needed and up_to_date():
        print("build_compiled: the compiled core is up to date")
        return
    if (missing := missing_tools()) is not None:
        print(
            f"build_compiled: cannot build the compiled core: {missing}; the pure-Python build is used",
            file=sys.stderr,
        )
        sys.exit(CANNOT_BUILD)
    if args.if_needed:
        print(
            "build_compiled: compiling the rules core and the bots with mypyc, once (about 2 minutes on 2 "
            "cores; the bots then think about twice as fast)",
            flush=True,
        )
        log = ROOT / "build" / "build_compiled.log"
        try:
            with quiet(log):  # mypyc's and the compiler's notes are for us, not for a player
                build()
        except (Exception, SystemExit) as error:  # `make play` goes on, on pure Python
            clean()
            print(
                f"build_compiled: the build failed ({error or type(error).__name__}; its output: {log}); "
                "the pure-Python build is used",
                file=sys.stderr,
            )
            sys.exit(CANNOT_BUILD)
    else:
        build()
    print(f"build_compiled: {len(COMPILED)} modules compiled with mypyc ({MANIFEST.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
