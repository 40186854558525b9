"""One whole turn of a 'deal' game played through the page, the same for every way a person plays it
(a finger on a phone, the keyboard alone): the setup's placements, reinforce, a blitz, the move-in,
a fortification and the end of the turn. What differs is the player's ``Hands``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from test_browser import Person, wait_until


class PagePlayer(Person):
    """A player at their seat's page (test_browser's Person: their own view through the API); the
    ways of picking a territory and pressing a control are the subclass's."""

    def my_turn(self) -> dict[str, Any]:
        return self.wait_for_my_turn()


class Hands(Protocol):
    page: Any

    def state(self) -> dict[str, Any]: ...

    def my_turn(self) -> dict[str, Any]: ...

    def choose(self, slug: str) -> None:
        """Pick a territory on the map, as this player does."""

    def press(self, element_id: str) -> None:
        """Press a control of the page, as this player does."""


def act_and_wait(hands: Hands, do: Callable[[], None], what: str) -> None:
    """Do it, and wait until the server took it. Not taken in 10 s (nothing moved: the page dropped
    the gesture, as Chrome may when it comes on a loaded machine right after a swipe), a person tries
    again: twice at most."""
    before = hands.state()["state_id"]
    for attempt in range(3):
        do()
        try:
            wait_until(lambda: hands.state()["state_id"] > before, what=f"{what} to be taken", timeout=10)
            return
        except AssertionError as failure:
            if attempt == 2:
                # What the page showed, to tell a dropped gesture from a page that fell behind.
                seen = hands.page.evaluate(
                    "() => [document.body.dataset.stateId, [...document.querySelectorAll('.toast')]"
                    ".map((t) => t.textContent), !document.querySelector('#hover-info')?.hidden]"
                )
                raise AssertionError(
                    f"{failure}: the server at state {hands.state()['state_id']}, the page at {seen[0]}, "
                    f"toasts {seen[1]}, territory card open: {seen[2]}"
                ) from None


def play_a_whole_turn(
    hands: Hands,
    on_setup: Callable[[str], None] = lambda slug: None,
    before_attack: Callable[[], None] = lambda: None,
    on_attack_chosen: Callable[[str, str], None] = lambda source, target: None,
    on_occupy: Callable[[], None] = lambda: None,
    after_each: Callable[[], None] = lambda: None,
) -> set[str]:
    """Play until the player's first main turn has ended; the stages done."""
    page = hands.page
    done: set[str] = set()
    deadline = time.monotonic() + 240
    while "end" not in done:
        assert time.monotonic() < deadline, f"the turn took too long: {done}"
        state = hands.my_turn()
        legal = {g["text"]: g for g in state["legal"]}
        phase = state["view"]["phase"]
        names = {t["name"].lower().replace(" ", "-"): t["name"] for t in state["view"]["territories"]}
        if phase == "setup-place":
            slug = next(text for text in legal if text.startswith("place ")).split()[1]
            on_setup(slug)
            act_and_wait(hands, lambda s=slug: hands.choose(s), f"the placement on {slug}")
        elif phase == "reinforce":
            place = max((g for g in legal.values() if g["text"].startswith("place ")), key=lambda g: g["max"])
            if page.locator("#place-all").count():
                hands.press("place-all")
            act_and_wait(hands, lambda p=place: hands.choose(p["text"].split()[1]), "the reinforcement")
            done.add("reinforce")
        elif phase == "attack" and "attack" not in done:
            attacks = [g for g in legal.values() if g["text"].startswith("attack ")]
            _, source, target = max(attacks, key=lambda g: g["max"])["text"].split()
            before_attack()
            hands.choose(source)
            page.locator(".selection-what", has_text=names[source]).wait_for(timeout=10_000)
            hands.choose(target)
            page.locator("#odds").filter(has_text="%").wait_for(timeout=30_000)
            on_attack_chosen(source, target)
            act_and_wait(hands, lambda: hands.press("blitz"), "the blitz")
            attack = f"attack {source} {target}"
            wait_until(
                lambda a=attack: (
                    hands.state()["view"]["phase"] != "attack"
                    or not any(g["text"] == a for g in hands.state()["legal"])
                ),
                what="the blitz to end",
                timeout=60,
            )
            done.add("attack")
        elif phase == "attack":
            act_and_wait(hands, lambda: hands.press("end-phase"), "the end of the attack")
        elif phase == "occupy":
            on_occupy()
            act_and_wait(hands, lambda: hands.press("move-confirm"), "the move-in")
            done.add("move")
        elif phase == "fortify" and "fortify" not in done:
            moves = [g for g in legal.values() if g["text"].startswith("fortify ")]
            _, source, target = max(moves, key=lambda g: g["max"])["text"].split()
            hands.choose(source)
            page.locator(".selection-what", has_text=names[source]).wait_for(timeout=10_000)
            hands.choose(target)
            page.locator("#move-confirm").wait_for(timeout=10_000)
            act_and_wait(hands, lambda: hands.press("move-confirm"), "the fortification")
            done.add("fortify")
        elif phase == "fortify":
            act_and_wait(hands, lambda: hands.press("end-phase"), "the end of the turn")
            done.add("end")
        else:
            raise AssertionError(f"no move planned for {phase}: {list(legal)[:5]}")
        after_each()
    return done
