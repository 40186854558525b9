"""The bots of an older checkout, loaded into this process next to today's, for strength comparisons.

    from baseline_inprocess import register_baseline
    names = register_baseline(Path("../baseline/src"))   # {"continental": "baseline-continental", ...}
    run_tournament(["continental", "baseline-continental"], rules, 200)

Only the ``risk.bots`` package is taken from the old checkout; its bots play this checkout's engine
(``risk.rules``, ``risk.odds``, ``risk.view``), so this is for comparing bots across commits that
did not change the engine. Each old bot sees exactly what it saw in its own version, through a
:class:`risk.view.View` of the live game: nothing is rebuilt from the protocol's view, which does not
carry everything the 2-player and expert games need (whose neutral army is being placed, the
neutrals' alliances, a roll waiting for a re-roll). ``benchmarks/baseline_bot.py`` plays an old bot
through the bot protocol instead, with the old engine.

The old bots are registered in :data:`risk.bots.BOTS` as ``baseline-NAME``; tournament workers
forked afterwards inherit them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import risk
import risk.bots
from risk.build import SourceOnly

# The interface every bot implements. On the compiled build the game loop (risk.play.simulate) accepts only
# instances of the compiled ``Bot``: the old bots then subclass today's, which is the same interface.
INTERFACE = "risk.bots.base"


def _in_bots(module: str) -> bool:
    return module == "risk.bots" or module.startswith("risk.bots.")


def _interface_is_compiled() -> bool:
    import risk.bots.base

    return not (risk.bots.base.__file__ or "").endswith(".py")


def load_baseline_bots(src: Path) -> dict[str, type]:
    """The bot classes of the checkout whose ``src`` folder is ``src``, by name."""
    package = src / "risk" / "bots"
    if not (package / "__init__.py").is_file():
        raise ValueError(f"{src} is not a src folder holding a risk.bots package")
    keep = {INTERFACE} if _interface_is_compiled() else set()
    today = {name: module for name, module in sys.modules.items() if _in_bots(name)}
    for name in today:
        if name not in keep:
            del sys.modules[name]
    # From the sources, even beside a compiled build (docs/compiled.md): an extension module loads
    # once per process, so it would give today's classes again.
    modules = [f"risk.bots.{path.stem}" for path in package.glob("*.py")]
    sources = SourceOnly([module for module in modules if module not in keep])
    sys.meta_path.insert(0, sources)
    try:
        spec = importlib.util.spec_from_file_location(
            "risk.bots", package / "__init__.py", submodule_search_locations=[str(package)]
        )
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        sys.modules["risk.bots"] = old
        spec.loader.exec_module(old)
        return dict(old.BOTS)
    finally:
        sys.meta_path.remove(sources)
        # Today's modules back in place: the old ones live on through the classes returned.
        for name in [n for n in sys.modules if _in_bots(n)]:
            del sys.modules[name]
        sys.modules.update(today)
        risk.bots = today["risk.bots"]  # type: ignore[attr-defined]


def register_baseline(src: Path, prefix: str = "baseline-") -> dict[str, str]:
    """Load the old bots and register each as ``prefix + name``; returns name -> registered name."""
    registered = {}
    for name, cls in load_baseline_bots(src).items():
        risk.bots.BOTS[prefix + name] = cls
        registered[name] = prefix + name
    return registered


__all__ = ["load_baseline_bots", "register_baseline"]
