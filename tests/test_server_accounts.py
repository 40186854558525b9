"""Accounts (docs/web.md, "Accounts"; issue 39 item 1) through the HTTP API: sign up, in and out;
names unique without regard to case and look-alikes; every refused value named by its field; the
sign-in that tells no one which names exist; the lockout and the rate; the session cookie and the
CSRF token; export, a new password, deletion; nothing secret in an answer or a log line."""

from __future__ import annotations

import logging
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

import test_server_notify
from conftest import SQL_KINDS, fresh_database_url
from risk.server.accounts.current import COOKIE
from risk.server.accounts.names import name_key
from risk.server.accounts.service import LOCKOUT_FAILURES, LOCKOUT_WINDOW_S
from risk.server.accounts.store import AccountStore, NameTaken, memory_engine
from risk.server.app import create_app
from risk.server.limits import Rate
from risk.server.sql import SqlStorage, open_storage
from risk.server.storage import MemoryStorage
from test_server_notify import Inbox

smtp = test_server_notify.smtp  # the SMTP server fixture (aiosmtpd)
PASSWORD = "correct horse battery"


class CountingHasher(PasswordHasher):
    """Cheap parameters (tests, not a server) and a count of the checks made."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified += 1
        return super().verify(hash, password)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def client(
    storage: Any = None, clock: Clock | None = None, rate: Rate | None = None, https: bool = False
) -> TestClient:
    app = create_app(
        storage or MemoryStorage(),
        password_hasher=CountingHasher(),
        clock=clock or Clock(),
        sign_in_rate=rate,
    )
    return TestClient(app, base_url="https://testserver" if https else "http://testserver")


def sign_up(c: TestClient, name: str = "Ann", password: str = PASSWORD, **more: Any) -> dict[str, Any]:
    answer = c.post("/api/account/signup", json={"name": name, "password": password, **more})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def refused(answer: Any, status: int, code: str, field: str | None = None) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    if field is not None:
        assert error["field"] == field, error
    message: str = error["message"]
    return message


def test_sign_up_signs_in_with_a_cookie_no_script_reads_and_no_other_site_sends() -> None:
    with client(https=True) as c:
        answer = c.post(
            "/api/account/signup", json={"name": "Ann", "password": PASSWORD, "email": "ann@example.org"}
        )
        assert answer.status_code == 200, answer.text
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=")
        for attribute in ("HttpOnly", "SameSite=strict", "Secure", "Path=/"):
            assert attribute.lower() in cookie.lower(), cookie
        body = answer.json()
        assert body["account"]["name"] == "Ann" and body["account"]["email"] == "ann@example.org"
        assert len(body["csrf"]) >= 32
        who = c.get("/api/account").json()
        assert who["account"]["name"] == "Ann" and who["csrf"] == body["csrf"]
        assert "argon2" not in answer.text and PASSWORD not in answer.text
    with client() as c:  # plain HTTP to another machine: no Secure (the browser would drop it)
        answer = c.post("/api/account/signup", json={"name": "Bob", "password": PASSWORD})
        assert "secure" not in answer.headers["set-cookie"].lower()
        assert c.get("/api/account").json()["account"]["name"] == "Bob"


def test_no_one_signed_in_is_null() -> None:
    with client() as c:
        assert c.get("/api/account").json() == {"account": None}
        c.cookies.set(COOKIE, "not-a-session")
        assert c.get("/api/account").json() == {"account": None}


@pytest.mark.parametrize(
    ("taken", "again"),
    [
        ("Bob", "bob"),
        ("Bob", "BOB"),
        ("Bob", "B0b"),
        ("Ian", "lan"),
        ("Ann Lee", "ann  lee"),
        ("bob", "ｂｏｂ"),
    ],
)
def test_a_name_is_taken_whatever_its_case_and_look_alikes(taken: str, again: str) -> None:
    with client() as c:
        sign_up(c, taken)
        c.cookies.clear()
        message = refused(
            c.post("/api/account/signup", json={"name": again, "password": PASSWORD}),
            409,
            "name-taken",
            "name",
        )
        assert "taken" in message


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"name": "Al", "password": PASSWORD}, "name", "3 to 24"),
        ({"name": "x" * 25, "password": PASSWORD}, "name", "3 to 24"),
        ({"name": "Ann!", "password": PASSWORD}, "name", "letters and digits"),
        ({"name": "Pаul", "password": PASSWORD}, "name", "one script"),  # a Cyrillic "а"
        ({"name": "Admin", "password": PASSWORD}, "name", "kept for the server"),
        ({"name": "Ann", "password": "short"}, "password", "8 to 256"),
        ({"name": "Ann", "password": PASSWORD, "email": "not an address"}, "email", "name@example.org"),
    ],
)
def test_every_bad_value_is_refused_beside_its_field(
    body: dict[str, Any], field: str, words: str | None
) -> None:
    with client() as c:
        answer = c.post("/api/account/signup", json=body)
        message = refused(answer, 422, "bad-field", field)
        if words is not None:
            assert words in message
        assert body["password"] not in answer.text
        assert c.get("/api/account").json() == {"account": None}  # nothing was made


def test_a_password_that_is_the_name_is_refused() -> None:
    with client() as c:
        refused(
            c.post("/api/account/signup", json={"name": "Annabelle", "password": "annabelle"}),
            422,
            "bad-field",
            "password",
        )


def test_malformed_requests_are_refused_without_echoing_the_password() -> None:
    with client() as c:
        for body in (
            {"name": "Ann"},
            {"name": "Ann", "password": 12345678},
            {"name": "Ann", "password": "p" * 300},
        ):
            answer = c.post("/api/account/signup", json=body)
            assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad-request", answer.text
            assert "p" * 300 not in answer.text


def test_sign_in_says_the_same_for_a_wrong_name_and_a_wrong_password_and_works_as_long() -> None:
    with client() as c:
        sign_up(c, "Ann")
        c.cookies.clear()
        hasher: CountingHasher = c.app.state.accounts.hasher  # type: ignore[attr-defined]
        before = hasher.verified
        wrong_password = c.post("/api/account/signin", json={"name": "Ann", "password": "wrong password"})
        no_account = c.post("/api/account/signin", json={"name": "Nobody", "password": "wrong password"})
        assert hasher.verified - before == 2  # the name with no account checked against a hash too
        assert refused(wrong_password, 401, "sign-in-failed") == refused(no_account, 401, "sign-in-failed")
        assert c.get("/api/account").json() == {"account": None}
        right = c.post("/api/account/signin", json={"name": "ANN", "password": PASSWORD})
        assert right.status_code == 200 and right.json()["account"]["name"] == "Ann"


def test_the_lockout_after_failed_sign_ins_then_the_window_passes() -> None:
    clock = Clock()
    with client(clock=clock) as c:
        sign_up(c, "Ann")
        c.cookies.clear()
        for _ in range(LOCKOUT_FAILURES):
            refused(
                c.post("/api/account/signin", json={"name": "Ann", "password": "guess guess"}),
                401,
                "sign-in-failed",
            )
        message = refused(
            c.post("/api/account/signin", json={"name": "ann", "password": PASSWORD}), 429, "locked"
        )
        assert "15 minutes" in message
        # A name with no account locks the same way: the lockout does not tell which names exist.
        for _ in range(LOCKOUT_FAILURES):
            c.post("/api/account/signin", json={"name": "Nobody", "password": "guess guess"})
        refused(
            c.post("/api/account/signin", json={"name": "Nobody", "password": "guess guess"}), 429, "locked"
        )
        clock.now += LOCKOUT_WINDOW_S + 1
        answer = c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 200, answer.text


def test_sign_ins_from_one_address_are_rate_limited() -> None:
    with client(rate=Rate(3, 60)) as c:
        for _ in range(3):
            c.post("/api/account/signin", json={"name": f"Guess{_}", "password": "guess guess"})
        message = refused(
            c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}), 429, "rate-limited"
        )
        assert "sign-ins and sign-ups" in message


def test_changes_need_the_csrf_token_and_this_sites_origin() -> None:
    with client() as c:
        csrf = sign_up(c)["csrf"]
        refused(c.post("/api/account/signout"), 403, "csrf")
        refused(c.post("/api/account/signout", headers={"X-CSRF-Token": "x" * 43}), 403, "csrf")
        refused(
            c.post("/api/account/signout", headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"}),
            403,
            "csrf",
        )
        refused(
            c.post(
                "/api/account/signin",
                json={"name": "Ann", "password": PASSWORD},
                headers={"Origin": "https://evil.example"},
            ),
            403,
            "csrf",
        )
        assert c.get("/api/account").json()["account"]["name"] == "Ann"  # none of them changed anything
        token = c.cookies[COOKIE]
        answer = c.post("/api/account/signout", headers={"X-CSRF-Token": csrf, "Origin": "http://testserver"})
        assert answer.status_code == 200 and answer.json() == {"account": None}
        assert c.get("/api/account").json() == {"account": None}
        c.cookies.set(COOKIE, token)  # the old cookie kept by someone: the session has ended
        assert c.get("/api/account").json() == {"account": None}
        refused(c.post("/api/account/signout", headers={"X-CSRF-Token": csrf}), 401, "signed-out")


def test_a_planted_session_does_not_survive_a_sign_in() -> None:
    """Session fixation: a cookie set before sign-in (here another account's) is never the session
    the sign-in gives; it ends."""
    with client() as c:
        sign_up(c, "Mallory")
        planted = c.cookies[COOKIE]
        sign_up(c, "Ann")  # Ann signs up in the browser where Mallory's cookie was planted
        c.cookies.clear()
        c.cookies.set(COOKIE, planted)
        answer = c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 200
        assert answer.cookies[COOKIE] != planted
        fresh = TestClient(c.app, base_url="http://testserver")
        fresh.cookies.set(COOKIE, planted)
        assert fresh.get("/api/account").json() == {"account": None}


def test_export_shows_what_is_stored_and_no_secret() -> None:
    with client() as c:
        sign_up(c, "Ann", email="ann@example.org")
        answer = c.get("/api/account/export")
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        data = answer.json()
        assert data["account"]["name"] == "Ann" and data["account"]["email"] == "ann@example.org"
        assert len(data["sessions"]) == 1
        assert "$argon2" not in answer.text and c.cookies[COOKIE] not in answer.text
        c.cookies.clear()
        refused(c.get("/api/account/export"), 401, "signed-out")


def test_a_new_password_signs_out_the_other_sessions() -> None:
    with client() as c:
        csrf = sign_up(c)["csrf"]
        other = TestClient(c.app, base_url="http://testserver")
        assert (
            other.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}).status_code == 200
        )
        refused(
            c.post(
                "/api/account/password",
                json={"password": "not it at all", "new_password": "a new one here"},
                headers={"X-CSRF-Token": csrf},
            ),
            422,
            "bad-field",
            "password",
        )
        answer = c.post(
            "/api/account/password",
            json={"password": PASSWORD, "new_password": "a new one here"},
            headers={"X-CSRF-Token": csrf},
        )
        assert answer.status_code == 200, answer.text
        assert c.get("/api/account").json()["account"]["name"] == "Ann"  # this session goes on
        assert other.get("/api/account").json() == {"account": None}
        c.cookies.clear()
        refused(
            c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}), 401, "sign-in-failed"
        )
        assert (
            c.post("/api/account/signin", json={"name": "Ann", "password": "a new one here"}).status_code
            == 200
        )


def test_deleting_the_account_needs_its_password_and_frees_the_name() -> None:
    with client() as c:
        csrf = sign_up(c, "Ann")["csrf"]
        headers = {"X-CSRF-Token": csrf}
        refused(
            c.post("/api/account/delete", json={"password": "wrong wrong"}, headers=headers),
            422,
            "bad-field",
            "password",
        )
        assert c.get("/api/account").json()["account"]["name"] == "Ann"
        answer = c.post("/api/account/delete", json={"password": PASSWORD}, headers=headers)
        assert answer.status_code == 200 and answer.json() == {"account": None}
        assert c.get("/api/account").json() == {"account": None}
        refused(
            c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}), 401, "sign-in-failed"
        )
        sign_up(c, "ann")  # the name is free again


def test_no_password_reaches_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    secret = "a secret no log may show"
    with caplog.at_level(logging.DEBUG), client() as c:
        sign_up(c, "Ann", password=secret)
        c.cookies.clear()
        c.post("/api/account/signin", json={"name": "Ann", "password": secret + "x"})
        c.post("/api/account/signin", json={"name": "Ann", "password": secret})
        c.post("/api/account/signup", json={"name": "Ann", "password": secret})
    assert secret not in caplog.text


def test_accounts_are_kept_in_the_database_for_every_server_process(storage_url: str) -> None:
    url = storage_url
    first = open_storage(url)
    try:
        with client(first) as c:
            sign_up(c, "Ann")
            token = c.cookies[COOKIE]
    finally:
        first.close()
    second = open_storage(url)  # another process, or the same server after a restart
    try:
        with client(second) as c:
            c.cookies.set(COOKIE, token)
            assert c.get("/api/account").json()["account"]["name"] == "Ann"
            c.cookies.clear()
            refused(
                c.post("/api/account/signup", json={"name": "ANN", "password": PASSWORD}), 409, "name-taken"
            )
    finally:
        second.close()


@pytest.mark.parametrize("where", ["memory", *SQL_KINDS])
def test_two_sign_ups_for_one_name_at_once_make_one_account(
    where: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """The database's unique key decides (on PostgreSQL a real race between connections)."""
    storage = None if where == "memory" else SqlStorage(fresh_database_url(where, request, tmp_path))
    store = AccountStore(memory_engine() if storage is None else storage.engine)
    made: list[str] = []
    taken: list[str] = []
    made_by: list[str] = []
    start = threading.Barrier(8)

    def attempt(spelling: str) -> None:
        start.wait()
        try:
            made.append(store.create(spelling, name_key(spelling), "hash", None, 0.0).id)
            made_by.append(spelling)
        except NameTaken:
            taken.append(spelling)
        except Exception as error:
            taken.append(repr(error))

    spellings = ["Bob", "bob", "BOB", "B0b", "b0b", "BoB", "bOb", "B0B"]
    threads = [threading.Thread(target=attempt, args=(s,)) for s in spellings]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and sorted(taken) == sorted(set(spellings) - {made_by[0]}), (made, taken)
    if storage is not None:
        storage.close()


# -- a forgotten password: a link by e-mail, through a real SMTP server --------------------------------
def sign_in(c: TestClient, name: str, password: str) -> Any:
    return c.post("/api/account/signin", json={"name": name, "password": password})


def finish(c: TestClient, token: str, new_password: str) -> Any:
    return c.post("/api/account/reset/finish", json={"token": token, "new_password": new_password})


def mailing_client(port: int, clock: Clock) -> TestClient:
    app = create_app(
        MemoryStorage(),
        password_hasher=CountingHasher(),
        clock=clock,
        sign_in_rate=None,
        smtp=f"smtp://127.0.0.1:{port}?from=risk@example.org",
    )
    return TestClient(app, base_url="http://testserver")


def reset_link(inbox: Inbox, to: str, count: int) -> str:
    deadline = time.monotonic() + 10
    while len(inbox.to(to)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    mails = inbox.to(to)
    assert len(mails) == count, [m["Subject"] for m in mails]
    body = mails[-1].get_content()
    found = re.search(r"http://testserver/#reset=([\w-]+)", body)
    assert found, body
    return found.group(1)


def test_a_forgotten_password_by_a_link_that_works_once_within_the_hour(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    clock = Clock()
    with mailing_client(port, clock) as c:
        sign_up(c, "Ann", email="ann@example.org")
        other = TestClient(c.app, base_url="http://testserver")
        assert (
            other.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}).status_code == 200
        )
        c.cookies.clear()
        # A forged Host does not choose where the link points: it points where Ann signed in.
        asked = c.post("/api/account/reset", json={"name": "ann"}, headers={"Host": "evil.example"})
        assert asked.status_code == 200 and "If that account has an e-mail address" in asked.json()["message"]
        # A name with no account, and one without an address: the same answer, and no e-mail.
        sign_up(TestClient(c.app, base_url="http://testserver"), "Bob")
        for name in ("Nobody", "Bob"):
            assert c.post("/api/account/reset", json={"name": name}).json() == asked.json()
        token = reset_link(inbox, "ann@example.org", 1)
        mail = inbox.to("ann@example.org")[0]
        assert "evil.example" not in mail.get_content()
        assert mail["From"] == "risk@example.org" and "Ann" in mail.get_content()
        refused(finish(c, token, "short"), 422, "bad-field", "password")
        done = finish(c, token, "a brand new one")
        assert done.status_code == 200 and done.json()["account"]["name"] == "Ann"
        assert c.get("/api/account").json()["account"]["name"] == "Ann"  # signed in by the link
        assert other.get("/api/account").json() == {"account": None}  # every other session ended
        again = c.post("/api/account/reset/finish", json={"token": token, "new_password": "yet another one"})
        assert "does not work" in refused(again, 403, "bad-token")
        c.cookies.clear()
        refused(
            c.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD}), 401, "sign-in-failed"
        )
        assert (
            c.post("/api/account/signin", json={"name": "Ann", "password": "a brand new one"}).status_code
            == 200
        )
        # A link over an hour old does not work; at most three links an hour reach one address.
        c.post("/api/account/reset", json={"name": "Ann"})
        old = reset_link(inbox, "ann@example.org", 2)
        clock.now += 3_601
        refused(
            c.post("/api/account/reset/finish", json={"token": old, "new_password": "too late now"}),
            403,
            "bad-token",
        )
        for _ in range(5):
            c.post("/api/account/reset", json={"name": "Ann"})
        time.sleep(0.5)
        assert len(inbox.to("ann@example.org")) == 5  # 2 before the hour passed, 3 after it
    assert "ann@example.org" not in str([m["Subject"] for m in inbox.messages])


def test_a_server_that_sends_no_e_mail_says_so() -> None:
    with client() as c:
        sign_up(c, "Ann", email="ann@example.org")
        assert "no e-mail" in refused(c.post("/api/account/reset", json={"name": "Ann"}), 409, "no-email")
