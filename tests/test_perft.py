"""Perft: counts of legal-action trees from fixed positions, checked against counts made by hand."""

from __future__ import annotations

from positions import make_position
from risk.rules.game import Game, Phase


def perft(game: Game, depth: int, stop_phase: Phase | None = None) -> int:
    """Leaves of the tree of legal actions ``depth`` deep (or until ``stop_phase`` is reached)."""
    if depth == 0 or game.is_over or (stop_phase is not None and game.phase == stop_phase):
        return 1
    total = 0
    for action in game.legal_actions():
        child = game.copy()
        child.apply_unchecked(action)
        total += perft(child, depth - 1, stop_phase)
    return total


def test_claim_perft_from_the_empty_board() -> None:
    game = Game("1993", 3, seed=0)
    assert [perft(game, d) for d in (1, 2, 3)] == [42, 42 * 41, 42 * 41 * 40]


def test_reinforcement_perft_counts_every_way_to_place() -> None:
    # k territories and p armies to place: the orderings of (territory, count) placements that use
    # them up number k * (k + 1) ** (p - 1) (compositions of p, each part on any territory).
    for territories, armies in ((1, 3), (2, 3), (3, 4), (2, 5)):
        owners = {name: (0, 1) for name in ["Siam", "India", "China"][:territories]}
        game = make_position("2003", owners=owners, phase=Phase.REINFORCE, pending=armies)
        assert perft(game, armies + 1, stop_phase=Phase.ATTACK) == territories * (territories + 1) ** (
            armies - 1
        )


def test_attack_counts_by_hand() -> None:
    # Player 0: Indonesia 4 (borders Siam, enemy: dice 1-3), Western Australia 5 (no enemy
    # neighbour), New Guinea 2, Eastern Australia 1. 3 attacks + endattack.
    owners = {
        "Indonesia": (0, 4),
        "Western Australia": (0, 5),
        "New Guinea": (0, 2),
        "Eastern Australia": (0, 1),
    }
    game = make_position("2008", owners=owners)
    assert len(game.legal_actions()) == 4
    # Siam (player 1) at 3 armies, Kamchatka 2 for player 0 as well: Kamchatka attacks Alaska,
    # Yakutsk, Irkutsk, Mongolia, Japan with 1 die: 5 more.
    owners["Kamchatka"] = (0, 2)
    game = make_position("2008", owners=owners)
    assert len(game.legal_actions()) == 9


def test_fortify_counts_by_hand() -> None:
    # Chain rule: Indonesia (4) reaches New Guinea, Western and Eastern Australia (3 targets x 3
    # armies); Western Australia (2) reaches 3 others x 1 army; the rest hold 1 army. + endturn.
    owners = {
        "Indonesia": (0, 4),
        "Western Australia": (0, 2),
        "New Guinea": (0, 1),
        "Eastern Australia": (0, 1),
    }
    game = make_position("2008", owners=owners, phase=Phase.FORTIFY)
    assert len(game.legal_actions()) == 9 + 3 + 1
    # Adjacent rule (1993): Indonesia borders New Guinea and Western Australia only.
    game = make_position("1993", owners=owners, phase=Phase.FORTIFY)
    assert len(game.legal_actions()) == 2 * 3 + 3 + 1


def test_battle_perft_through_the_defence() -> None:
    # Alaska 3 vs Kamchatka 2: attacks with 1 or 2 dice, each answered by defend 1 or defend 2.
    game = make_position("2008", owners={"Alaska": (0, 3), "Kamchatka": (1, 2)}, default_owner=0)
    assert perft(game, 1) == 2 + 1
    # After endattack: Alaska (3) may move 1 or 2 armies to any of the 40 other territories of
    # player 0 (all connected), or end the turn.
    assert perft(game, 2) == 2 * 2 + (40 * 2 + 1)
