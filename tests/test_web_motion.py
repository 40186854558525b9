"""The page's animations cost the compositor alone: every `@keyframes` of the stylesheet animates
opacity or a transform, and no rule of the board (`.board-svg`) has a transition of anything else.

An animated fill or stroke inside the board's SVG repaints and rasterises the whole board on every
frame: a pulsing outline alone kept Chromium busy at 0.7 of a core on a laptop-sized page, and
watching bots play took 11 CPU-seconds of Chromium per 10 s where it now takes about 6
(src/risk/web/README.md).
"""

from __future__ import annotations

import re
from pathlib import Path

STYLESHEET = Path(__file__).resolve().parents[1] / "src" / "risk" / "web" / "css" / "app.css"
COMPOSITED = {"opacity", "transform"}


def without_comments(css: str) -> str:
    return re.sub(r"/\*.*?\*/", "", css, flags=re.S)


def keyframes(css: str) -> dict[str, str]:
    """Each `@keyframes name { ... }` block's body (the blocks nest one level: a frame's braces)."""
    found: dict[str, str] = {}
    for match in re.finditer(r"@keyframes\s+([\w-]+)\s*\{", css):
        depth, at = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[at], 0)
            at += 1
        found[match.group(1)] = css[match.end() : at - 1]
    return found


def animated_properties(body: str) -> set[str]:
    return {name.strip() for name in re.findall(r"([\w-]+)\s*:", body)}


def test_every_keyframes_animates_opacity_or_a_transform_only() -> None:
    frames = keyframes(without_comments(STYLESHEET.read_text()))
    assert {"pulse", "badge-flash", "anim-fade", "anim-ring"} <= set(frames), sorted(frames)
    for name, body in frames.items():
        assert animated_properties(body) <= COMPOSITED, (name, animated_properties(body))


def board_transitions(css: str) -> list[tuple[str, set[str]]]:
    """Each transition of a rule of the board: its selector and the properties it names."""
    found = []
    for selector, body in re.findall(r"([^{}@]+)\{([^{}]*)\}", without_comments(css)):
        if ".board-svg" not in selector:
            continue
        for value in re.findall(r"(?:^|;)\s*transition(?:-property)?\s*:([^;]+)", body):
            found.append((selector.strip(), {part.split()[0] for part in value.split(",") if part.strip()}))
    return found


def test_no_board_rule_has_a_transition_of_a_painted_property() -> None:
    css = STYLESHEET.read_text()
    assert css.count(".board-svg") > 20, "the board's rules were not found"
    for selector, properties in board_transitions(css):
        assert properties <= COMPOSITED | {"none"}, (selector, properties)


def test_the_checks_see_a_painted_animation() -> None:
    """The parsing above finds what it forbids."""
    css = (
        "@keyframes glow { 0% { fill: #fff; } 50% { opacity: 0.5 } }\n"
        ".board-svg .x { transition: fill 0.2s, opacity 1s; }"
    )
    assert animated_properties(keyframes(css)["glow"]) == {"fill", "opacity"}
    assert board_transitions(css) == [(".board-svg .x", {"fill", "opacity"})]
