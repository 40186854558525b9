"""A game that lasts days (issue 38's measure): two friends and a bot on one server, a day per turn,
simulated time. Each friend is told by e-mail (a real SMTP server) and by Web Push (a push service
on 127.0.0.1, each request decrypted with the friend's browser key) and opens the game only from a
notification (Ann from her pushes, Bob from his e-mails: the link in the newest one is the only way
they have to their seat), plays their stretch through the API, and closes it; each goes
on vacation once; one lets a deadline pass and the game's stand-in plays that turn; the bot plays as
it comes. What each friend was told is counted against what the game did: every stretch of theirs
told once, every opponent's turn in which they lost territories told once (after that turn), a
reminder for a stretch left late, the end once, and never two messages within the pace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from fastapi.testclient import TestClient

from risk.bots import make_bot
from risk.server.app import create_app
from risk.server.clock import run_out
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.notify.sender import Notifier
from risk.server.sql import SqlStorage
from risk.server.timing import DAY
from risk.view import View
from test_server_notify import Clock, Inbox, smtp  # noqa: F401 (the SMTP server fixture)
from test_server_push import Browser, PushService, service, settings  # noqa: F401 (the push service)

HOUR = 3600.0
START = 1_796_000_400.0  # a Monday, 09:00 UTC
LINK = re.compile(r"(http://risk\.test/game/([\w-]+)#token=([\w-]+))")


@dataclass
class Friend:
    seat: int
    name: str
    address: str
    via: str  # the channel they read: "email" or "push"
    reads_after: float  # how long after a message arrives they read it
    vacation_from: int  # the first own turn after which they take a day's vacation
    misses_turn: int = -1  # an own turn whose messages they leave unread: the clock runs out
    token: str = ""  # known only from a message's link
    browser: Browser = field(default_factory=Browser)  # its keys: the push service never has them
    unread: list[tuple[float, str, str]] = field(default_factory=list)  # (arrived, subject, text)
    pushed: list[str] = field(default_factory=list)  # the text of each push
    away: tuple[float, float] | None = None  # the vacation taken: from, until
    opened: int = 0  # times the page was opened, each from a message
    played: set[int] = field(default_factory=set)  # own turns they played (some of)
    asked: set[int] = field(default_factory=set)  # the states at which their defence dice were asked


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content


def told(inbox: Inbox, friend: Friend, game_id: str) -> list[str]:
    """Every event line of every message to the friend, in order."""
    prefix = f"Game {game_id}"
    return [
        line for m in inbox.to(friend.address) for line in body(m).splitlines() if line.startswith(prefix)
    ]


def turn_of(line: str) -> int:
    found = re.search(r"\(turn (\d+)\)", line)
    assert found, line
    return int(found.group(1))


def test_two_friends_and_a_bot_play_a_game_over_days_told_exactly_as_promised(
    tmp_path: Path,
    smtp: tuple[Inbox, int],  # noqa: F811
    service: PushService,  # noqa: F811
) -> None:
    inbox, port = smtp
    clock = Clock()
    clock.now = START
    storage = SqlStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    mail = f"smtp://127.0.0.1:{port}?from=risk@example.org"
    app = create_app(storage, smtp=mail, push=settings(), clock=clock)
    master: GameMaster = app.state.master
    notifier: Notifier = app.state.notifier
    # No lifespan: the test is the server's time; it plays the bot and runs the clock out itself.
    client = TestClient(app, base_url="http://risk.test")
    spec = GameSpec(
        seats=[
            SeatSpec("human", "Ann", defence="matters", auto_setup=True),
            SeatSpec("human", "Bob", defence="most", auto_setup=True),
            SeatSpec("bot", bot="quick"),
        ],
        options={"setup": "deal"},
        seed=11,
        bot_delay=0,
        turn_time=DAY,
        defend_timeout=0,  # a defence: the turn time
        missed_turns=2,
        stand_in="quick",
        vacation_days=2,
    )
    record, created = master.create_game(spec)
    game_id = record.id
    live = master.live(game_id)
    friends = [
        Friend(0, "Ann", "ann@example.org", "push", reads_after=0.5 * HOUR, vacation_from=6),
        Friend(1, "Bob", "bob@example.org", "email", reads_after=2 * HOUR, vacation_from=10, misses_turn=4),
    ]
    # Each friend gave an address on the seat's page once, as the game began (the only time the
    # creator's links are used); from then on they come back only from a message.
    for friend, seat in zip(friends, created, strict=False):
        assert seat.token
        headers = {"Authorization": f"Bearer {seat.token}"}
        answer = client.put(
            f"/api/games/{game_id}/notify/email",
            json={"address": friend.address, "pace": "each", "every_minutes": 1},
            headers=headers,
        )
        assert answer.status_code == 200, answer.text
        subscription = friend.browser.subscription(service.endpoint(f"send/{friend.name}"))
        answer = client.put(
            f"/api/games/{game_id}/notify/push", json={"subscription": subscription}, headers=headers
        )
        assert answer.status_code == 200, answer.text

    owners, turn, mover = list(live.game.owner), live.game.turn, live.game.current
    turns_of: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}  # each seat's turns
    lost: dict[tuple[int, int], set[str]] = {}  # (turn, seat): territories lost in that turn
    ran_out: list[tuple[int, int, float]] = []  # (seat, turn, when)
    mails = pushes = 0

    def deliver() -> None:
        nonlocal mails, pushes
        notifier.step()
        for message in inbox.messages[mails:]:
            friend = next(f for f in friends if f.address == message["To"])
            if friend.via == "email":
                friend.unread.append((clock.now, message["Subject"], body(message)))
        for path, _, encrypted in service.posts[pushes:]:
            friend = next(f for f in friends if path == f"/send/{f.name}")
            shown = friend.browser.read(encrypted)
            friend.pushed.append(shown["body"])
            if friend.via == "push":
                friend.unread.append((clock.now, shown["title"], shown["url"]))
        mails, pushes = len(inbox.messages), len(service.posts)

    def note_turn() -> None:
        """Whose turn it is and who lost what in the turn just over: the truth the messages are
        counted against."""
        nonlocal owners, turn, mover
        game = live.game
        if game.turn > 0:  # the setup is the standing orders' (auto_setup): nobody is told of it
            turns_of[game.current].add(game.turn)
        if (game.turn, game.current) == (turn, mover) and not game.is_over:
            return
        for index, (was, now) in enumerate(zip(owners, game.owner, strict=True)):
            if was != now and was in (0, 1) and was != mover:
                lost.setdefault((turn, was), set()).add(game.board.territories[index].name)
        owners, turn, mover = list(game.owner), game.turn, game.current

    def server_plays() -> bool:
        """The bot, a stand-in or a seat's standing order (its defence dice, its setup): at once."""
        found = master.bot_turn(game_id)
        if found is None:
            return False
        seat, state_id, decide = found
        master.submit_as(game_id, seat, decide(), state_id)
        clock.now += 5
        note_turn()
        return True

    def person_plays(friend: Friend) -> None:
        view = View(live.game, friend.seat)
        text = view.action_text(make_bot("quick", live.state_id).choose(view))
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": text, "state_id": live.state_id},
            headers={"Authorization": f"Bearer {friend.token}"},
        )
        assert answer.status_code == 200, answer.text
        clock.now += 20  # a person's few seconds a move
        note_turn()

    def open_from_message(friend: Friend) -> None:
        """The friend reads their newest message and follows its link: the seat's page opens, they
        play what is theirs to play while the page is open, and close it."""
        _, subject, text = friend.unread[-1]
        found = LINK.search(text)
        assert found, text
        link, linked_game, token = found.groups()
        assert linked_game == game_id
        assert client.get(link.split("#")[0].removeprefix("http://risk.test")).status_code == 200
        view = client.get(f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
        assert view.status_code == 200 and view.json()["seat"] == friend.seat
        friend.token, friend.unread = token, []
        friend.opened += 1
        if live.game.is_over or live.game.to_act != friend.seat:
            return  # what happened, read; nothing to play now
        # The message read is the one that says what to do now.
        assert subject.endswith(("it is your move", "your defence is wanted", "your time runs out soon"))
        if live.game.current != friend.seat:
            person_plays(friend)  # the defence dice asked for
            return
        friend.played.add(live.game.turn)
        while not live.game.is_over and live.game.current == friend.seat:
            if live.game.to_act == friend.seat:
                person_plays(friend)
            elif not server_plays():
                return  # a person's defence dice are wanted: the page is closed meanwhile
        if friend.away is None and live.game.turn > friend.vacation_from:
            answer = client.post(
                f"/api/games/{game_id}/vacation",
                json={"days": 1},
                headers={"Authorization": f"Bearer {friend.token}"},
            )
            assert answer.status_code == 200, answer.text
            friend.away = (clock.now, answer.json()["away_until"])
            assert friend.away[1] == clock.now + DAY

    note_turn()
    for _ in range(50_000):
        if live.game.is_over:
            break
        if server_plays():
            continue
        seat = live.game.to_act
        if seat != live.game.current and seat in (0, 1):
            friends[seat].asked.add(live.state_id)  # not a standing order's: the person is asked
        deliver()
        ready = [
            f
            for f in friends
            if f.unread
            and clock.now >= f.unread[-1][0] + f.reads_after
            and (f.away is None or clock.now >= f.away[1])
            and not (live.game.current == f.seat and live.game.turn == f.misses_turn)
        ]
        if ready:
            open_from_message(ready[0])
            continue
        deadline = live.deadline
        assert deadline is not None
        if clock.now >= deadline:
            ran_out.append((seat, live.game.turn, clock.now))
            assert run_out(master.table, game_id, live.state_id) is not None
            note_turn()
            continue
        clock.now += 15 * 60  # a quarter of an hour goes by
    assert live.game.is_over, "the game did not end"
    clock.now += 60
    deliver()
    days = (clock.now - START) / DAY

    for friend in friends:
        lines = told(inbox, friend, game_id)
        moves = [turn_of(line) for line in lines if "it is your move (turn" in line]
        # Every turn of theirs told once (the one they let run out too), and only theirs.
        assert sorted(moves) == sorted(turns_of[friend.seat]), (friend.name, moves)
        # Every opponent's turn in which they lost territories: one line, after it, naming them all.
        losses = {turn_of(line): line for line in lines if " you lost " in line}
        assert len(losses) == len([line for line in lines if " you lost " in line])
        # The turn that ends the game is told by the end's line alone (notify/events.py: "the end is
        # told; losses no more").
        truth = {
            turn: names
            for (turn, seat), names in lost.items()
            if seat == friend.seat and turn != live.game.turn
        }
        assert set(losses) == set(truth), (friend.name, sorted(losses), sorted(truth))
        for turn, names in truth.items():
            assert all(name in losses[turn] for name in names), (losses[turn], names)
        # Each defence asked of them, once; each wait for the other's defence that held their turn up.
        assert sum("your defence dice are wanted" in line for line in lines) == len(friend.asked)
        other = friends[1 - friend.seat]
        goes_on = [turn_of(line) for line in lines if "rolled their defence: your turn goes on" in line]
        assert len(goes_on) <= len(other.asked)
        assert sum(" is over: " in line for line in lines) == 1
        assert friend.away is not None
        assert not [r for r in ran_out if r[0] == friend.seat and friend.away[0] <= r[2] < friend.away[1]]
        # Web Push told the same, line for line (the same events; each channel its own messages).
        pushed = [line for text in friend.pushed for line in text.splitlines()]
        assert sorted(pushed) == sorted(lines), friend.name
    bob = friends[1]
    assert [(seat, turn) for seat, turn, _ in ran_out] == [(1, bob.misses_turn)]
    assert bob.misses_turn not in bob.played
    assert any("Ann rolled their defence: your turn goes on" in line for line in told(inbox, bob, game_id))
    assert any("your move runs out" in line for line in told(inbox, bob, game_id))
    assert 2 <= days <= 10, days
