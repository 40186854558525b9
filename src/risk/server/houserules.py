"""House rules and rematches. Plain functions over the game master, no HTTP.

A ruleset is what the lobby needs to create the same game again: edition, game, rule options, board,
optionally the seats (who plays: humans by name, open seats, bots by level) and the table settings.
It is checked exactly as a game created from it would be, then saved under a short random id that
links and QR codes carry. A rematch is a new game with the rules, board, seats and settings of a
finished one and a new seed; each human seat keeps its token hash, so every player's link works.
"""

from __future__ import annotations

import io
import secrets
from dataclasses import replace
from typing import Any

import segno

from risk.server.chat import one_line
from risk.server.errors import Refusal
from risk.server.master import GameMaster, GameSpec, SeatSpec, new_game_id
from risk.server.storage import GameRecord, MemoryStorage, RulesetRecord, SeatRecord
from risk.server.timing import timing_settings

MAX_RULESET_NAME = 60
# The table settings a group keeps with its rules, the turn clock among them (a house rule too).
TABLE_SETTINGS = (
    "bot_delay",
    "defend_timeout",
    "spectators",
    "spectator_view",
    "public",
    "turn_time",
    "missed_turns",
    "stand_in",
    "time_bank",
    "vacation_days",
)


def new_ruleset_id() -> str:
    return secrets.token_urlsafe(6)


def check_ruleset(
    master: GameMaster,
    name: str,
    spec: GameSpec,
    table: dict[str, Any],
    with_seats: bool,
) -> tuple[str, dict[str, Any]]:
    """The cleaned name and settings to store, or a Refusal saying what is wrong. ``spec`` holds the
    rules (and the seats when ``with_seats``); ``table`` the table settings that were given."""
    unknown = sorted(set(table) - set(TABLE_SETTINGS))
    if unknown:
        choices = ", ".join(TABLE_SETTINGS)
        raise Refusal("bad-request", f"no table setting {unknown[0]!r}; settings: {choices}")
    if not with_seats:  # the rules are checked with as few seats as they allow
        low = master.rules_for(spec, check_count=False).players[0]
        spec = replace(spec, seats=[SeatSpec("bot", bot="quick")] * low)
    # A dry run on a scratch store: refused exactly as a game created from these settings would be.
    scratch = GameMaster(MemoryStorage(), allow_external_bots=master.allow_external_bots)
    _, created = scratch.create_game(replace(spec, seed=0))
    clean: dict[str, Any] = {
        "edition": spec.edition.strip().lower(),
        "game": spec.game,
        "options": dict(spec.options),
        "board": spec.board,
    }
    if with_seats:
        clean["seats"] = [
            {"kind": made.kind}
            | ({} if made.kind == "open" else {"name": made.name})
            | ({"bot": (asked.bot or "").strip().lower()} if made.kind == "bot" else {})
            | ({"bot": (asked.bot or "").strip()} if made.kind == "external" else {})
            for made, asked in zip(created, spec.seats, strict=True)
        ]
    if table:
        # The clock's settings as a game keeps them (the stand-in bot's name in lower case).
        clock = timing_settings(
            spec.turn_time, spec.missed_turns, spec.stand_in, spec.time_bank, spec.vacation_days
        )
        clean["table"] = {key: clock.get(key, value) for key, value in table.items()}
    return one_line(name, MAX_RULESET_NAME, "the name of the house rules"), clean


def save_ruleset(
    master: GameMaster, name: str, spec: GameSpec, table: dict[str, Any], with_seats: bool
) -> RulesetRecord:
    name, clean = check_ruleset(master, name, spec, table, with_seats)
    record = RulesetRecord(id=new_ruleset_id(), name=name, settings=clean, created=master.clock())
    master.store(lambda: master.storage.save_ruleset(record))
    return record


def get_ruleset(master: GameMaster, ruleset_id: str) -> RulesetRecord:
    record = master.store(lambda: master.storage.get_ruleset(ruleset_id))
    if record is None:
        raise Refusal("not-found", f"no house rules {ruleset_id!r}: the link may be mistyped")
    return record


def ruleset_answer(master: GameMaster, record: RulesetRecord) -> dict[str, Any]:
    """Saved house rules as the API answers them: with the rules in words and the links."""
    s = record.settings
    spec = GameSpec(edition=s["edition"], game=s["game"], options=s.get("options", {}))
    return {
        "id": record.id,
        "name": record.name,
        "created": record.created,
        "settings": s,
        "rules": master.rules_for(spec, check_count=False).describe(),
        "link": f"/#rules={record.id}",
        "qr": f"/api/rulesets/{record.id}/qr.svg",
    }


def qr_svg(url: str) -> bytes:
    """A QR code of ``url`` as a standalone SVG (dark modules on white, a quiet zone of 2 modules)."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=4,
        border=2,
        dark="#0c1622",
        light="#ffffff",
        xmldecl=False,
        title="RISK house rules",
    )
    return out.getvalue()


def rematch(master: GameMaster, game_id: str) -> tuple[GameRecord, bool]:
    """The rematch of a finished game (the caller checked that a seat asks): created by the first call
    (same rules, board, seats and settings, a new seed), the same game for every later call. Answers
    the new game's record and whether this call created it."""
    live = master.live(game_id)
    with live.lock:
        if not live.game.is_over:
            raise Refusal("bad-request", "a rematch can be asked for once the game is over")
        existing = live.record.settings.get("rematch")
        if existing:
            return master.live(existing).record, False
        old = live.record
        if any(s.kind == "external" for s in old.seats) and not master.allow_external_bots:
            raise Refusal("bad-request", "this game had external bots: the server no longer allows them")
        now = master.clock()
        settings = {k: v for k, v in old.settings.items() if k not in ("rematch", "rematch_of")}
        record = GameRecord(
            id=new_game_id(),
            rules=old.rules,
            board=old.board,
            board_sha256=old.board_sha256,  # a board given as JSON: the rematch plays it too
            board_json=old.board_json,
            seed=secrets.randbelow(2**63),
            # Each human keeps the token hash: the link they hold plays their seat in the rematch too;
            # a seat bound to an account stays bound (a rated game's rematch is rated as it was).
            seats=tuple(
                SeatRecord(s.seat, s.name, s.kind, s.bot, s.token_hash, account=s.account, browser=s.browser)
                for s in old.seats
            ),
            settings=settings | {"rematch_of": game_id},
            created=now,
            updated=now,
            status="playing",
            host_hash=old.host_hash,
        )
        master.add_game(record)
        marked = old.settings | {"rematch": record.id}
        master.store(lambda: master.storage.update_settings(game_id, marked))
        live.record = replace(live.record, settings=marked)
        live.publish()  # the state messages, read without the lock, name the rematch
        return record, True
