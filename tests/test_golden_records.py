"""Same seed, same games: the golden games (tests/golden_games.py) replay to the records they had
at the commit before the speed work (7da55b5). A speed-up that changes any game fails here.

The table is printed by ``tools/golden_records.py``; change it only for a change of play that is
meant and measured, and say so in the commit.
"""

from __future__ import annotations

import pytest

from golden_games import GoldenCase, golden_digest, golden_keys

GOLDEN = {
    "quick-2008-3/0": "ad6b92284e54ffe18609",
    "quick-2008-3/1": "aa29a6dfa71c5f9b1da7",
    "quick-2008-3/2": "d69918326a8e23f00ff7",
    "quick-2008-3/3": "5965ddebe16f9578e065",
    "quick-2008-3/4": "ddfe6e924895eeb384d5",
    "quick-2008-3/5": "e477d253da7a3a6a8d57",
    "quick-1993-6/0": "f4c98651ae0a239468c8",
    "quick-1993-6/1": "46f1e4f85d28f58afe73",
    "quick-1993-6/2": "352230b560d5dedd4b02",
    "quick-1993-6/3": "1b531aa296ae29056941",
    "fortress-2008-3/0": "a0992f85beb7b3110470",
    "fortress-2008-3/1": "d3708dd90adfaa2e7c17",
    "fortress-2008-3/2": "78920933bfe7779a9aa3",
    "fortress-1993-6/0": "b8ff1166b633fb58ee30",
    "fortress-1993-6/1": "9c3c81a332587b7fb113",
    "continental-2008-3/0": "da9c10bee68c89034b77",
    "continental-2008-3/1": "e464631f3f641ee86f4a",
    "continental-2008-3/2": "cf6029f80bdb53118796",
    "continental-2008-3/3": "214f20e5811520bd280d",
    "continental-1993-6/0": "b010771f17e357706402",
    "continental-1993-6/1": "818052a3917cfc7837c7",
    "ladder-2003-4/0": "1a14d3ed2f580ee91eb6",
    "ladder-2003-4/1": "4e214bc36452ef9f47a8",
    "secret-mission-2008-4/0": "4f7f624138045705e754",
    "secret-mission-2008-4/1": "8a7c242602c1b1e806f5",
    "secret-mission-2008-4/2": "5e1d748fb0c69c399c9d",
    "secret-mission-1993-6/0": "951a6020e83ac79a1d61",
    "secret-mission-1993-6/1": "6b08ac13774b68bb7ef2",
    "capital-1993-4/0": "b89a25640f27a319324e",
    "capital-1993-4/1": "f5ef6cdeda136018e86d",
    "capital-2008-3-short/0": "fee5703a5be2da210226",
    "two-player-1993/0": "b103c97347660ae56200",
    "two-player-1993/1": "63767fe0c21e830cec64",
    "two-player-1993/2": "a931a5a35e2fe7415ecd",
    "two-player-2003/0": "a4b69acb3f59109c07fd",
    "two-player-2003/1": "ff9a4068d58215468b28",
    "two-player-2003-active/0": "72af04205f993015f865",
    "two-player-2003-active/1": "4e3d45fd41aaded0c030",
    "two-player-2003-active/2": "1a9d176ac7dac562183a",
    "mission-2003-4/0": "b5b42fd1ee633cf4e849",
    "mission-2003-4/1": "0e0675b7560026d2ed81",
    "team-2003-4/0": "b5cc16caf49f1f85d1a8",
    "team-2003-4/1": "be35c85c2d9b3e8a7c2c",
    "team-2003-6/0": "6767d72ddeb0f6e3c7aa",
    "experts-1993-3/0": "e348504507fff8509b30",
    "experts-1993-3/1": "7c53233c12137fe462bc",
    "search-2008-3/0": "9c68cf8bded955e20656",
    "search-2008-3/1": "d1be86d030beac8b51eb",
    "search-1993-6/0": "410ad4ba1b0ecc4b779f",
    "search-secret-mission-2008-3/0": "a28a36f34d081032ca5f",
    "search-team-2003-4/0": "d5350c7c93cbf2f87416",
}


@pytest.mark.parametrize(
    ("case", "seed"), golden_keys(), ids=[f"{case.label}/{seed}" for case, seed in golden_keys()]
)
def test_golden_game_replays_exactly(case: GoldenCase, seed: int) -> None:
    assert golden_digest(case, seed) == GOLDEN[f"{case.label}/{seed}"]


def test_every_golden_game_has_a_digest() -> None:
    assert sorted(GOLDEN) == sorted(f"{case.label}/{seed}" for case, seed in golden_keys())
