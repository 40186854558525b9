"""Search for seat colours that every two players tell apart, whatever their colour vision.

    python tools/palette_search.py --steps 10000 --rounds 3 --seed 1

Starts from src/risk/web/js/palette.js's colours and moves one colour at a time (random steps in sRGB,
smaller as the search goes on), keeping a move when the palette's worst pair gets no worse. The
measure is tests/test_palette.py's: the CIEDE2000 difference of every two colours that can meet in
one game (the 10 seats; Secret Mission RISK's named colours, black and gray among them), for normal
vision and simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009); the smallest
over all pairs and visions is the palette's minimum. Ties go to the palette whose next-closest pairs
are further apart. Every colour stays what it is called (its name's hues, lightness and chroma:
tests/test_palette.py's NAMES), and the army badge's rim (the colour darkened) keeps a contrast of 3
with the badge's disc. Prints the best palette as palette.js's JSON rows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from colour_vision import VISIONS, ciede2000, contrast, lab, rgb, seen  # noqa: E402
from test_palette import PALETTE_JS, misnamed, shade  # noqa: E402

WORST = 6  # how many of the closest pairs the comparison of two palettes looks at


def load() -> dict[str, object]:
    found = re.search(r"export const PALETTE = (\{.*\});\s*$", PALETTE_JS.read_text(encoding="utf-8"), re.S)
    if not found:
        raise SystemExit(f"{PALETTE_JS}: no 'export const PALETTE = {{...}};'")
    data: dict[str, object] = json.loads(found.group(1))
    return data


class Search:
    def __init__(self, data: dict[str, object]) -> None:
        seats = data["seats"]
        assert isinstance(seats, list)
        self.names = [c["name"] for c in seats]
        self.fills = [c["fill"] for c in seats]
        named = data["named"]
        assert isinstance(named, list)
        # Named colours of their own (black, gray) join the seats' colours; a game holds either.
        for row in named:
            if not isinstance(row, str):
                self.names.append(row["name"])
                self.fills.append(row["fill"])
        index = {name: i for i, name in enumerate(self.names)}
        named_ids = [index[row if isinstance(row, str) else row["name"]] for row in named]
        pairs = set(itertools.combinations(range(len(seats)), 2))
        pairs |= {tuple(sorted(p)) for p in itertools.combinations(named_ids, 2)}
        self.pairs = sorted(pairs)
        badge = data["badge"]
        assert isinstance(badge, dict)
        self.disc, self.rim = badge["disc"], badge["rim_shade"]
        self.labs = [self.seen(f) for f in self.fills]

    @staticmethod
    def seen(fill: str) -> list[tuple[float, float, float]]:
        return [lab(seen(rgb(fill), vision)) for vision in VISIONS]

    def allowed(self, i: int, fill: str) -> bool:
        """Still the colour it is called (test_palette.NAMES), and its badge's rim visible."""
        return not misnamed(self.names[i], fill) and contrast(shade(fill, self.rim), self.disc) >= 3

    def pair(self, labs: list[list[tuple[float, float, float]]], a: int, b: int) -> float:
        return min(ciede2000(x, y) for x, y in zip(labs[a], labs[b], strict=True))

    def score(self, labs: list[list[tuple[float, float, float]]]) -> list[float]:
        return sorted(self.pair(labs, a, b) for a, b in self.pairs)[:WORST]

    def run(self, steps: int, rng: random.Random) -> list[float]:
        best = self.score(self.labs)
        for step in range(steps):
            size = 40 * (1 - step / steps) + 2
            i = rng.randrange(len(self.fills))
            channels = [min(255, max(0, round(c * 255 + rng.gauss(0, size)))) for c in rgb(self.fills[i])]
            fill = "#" + "".join(f"{v:02x}" for v in channels)
            if not self.allowed(i, fill):
                continue
            labs = [*self.labs]
            labs[i] = self.seen(fill)
            tried = self.score(labs)
            if tried >= best:
                best, self.labs, self.fills[i] = tried, labs, fill
        return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    search = Search(load())
    print(f"from: {search.score(search.labs)[0]:.2f}")
    rng = random.Random(args.seed)
    for _ in range(args.rounds):  # each round starts with large steps again, from the best so far
        best = search.run(args.steps, rng)
    print(f"reached: {best[0]:.2f} (next closest: {', '.join(f'{d:.2f}' for d in best[1:])})")
    for name, fill in zip(search.names, search.fills, strict=True):
        print(json.dumps({"name": name, "fill": fill}))


if __name__ == "__main__":
    main()
