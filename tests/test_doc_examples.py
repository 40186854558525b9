"""Every shell and Python example of README.md and docs/*.md stays true (issue 36).

The examples are the fenced blocks of those pages: a block tagged ``sh`` (each line one command, its
``# comment`` dropped), an untagged block whose every line is a command (``risk``, ``make``,
``python``, ...), and a block tagged ``python`` (a ``>>>`` block is a doctest). Each one is in
``EXAMPLES`` below, keyed by its page and its command (or its Python block's first line), with what
the test does with it:

* ``Run``: run as written, or shortened (``instead``: fewer games, a turn cap; ``replace``: the same
  for a Python block), in a scratch folder that has the repository's ``benchmarks`` and ``examples``
  and ``.venv`` (this Python's environment); it must exit 0 (or ``status``), with no traceback;
* ``Serve``: a command that starts the web server: started on a free port, it must answer, then is
  stopped (a browser it opens is ``true``);
* ``Covered``: named as covered by the given tests (each must exist), when running it here would need
  what a test sets up (a PostgreSQL server, a Ray cluster, a long run, the repository's own files);
* ``Excerpt``: a piece of the sources quoted by a page: every line of it (comments aside) must be in
  that source file;
* ``Synopsis``: a command's synopsis: every option it names must be in the command's ``--help``.

A new example (or a changed one) that is not in the table fails ``test_every_example_is_in_the_table``;
an entry whose example is gone fails it too. An example that fails because of a bug being fixed on
another branch is marked ``xfail(strict=True)`` with the issue's item, so that the fix turns it into a
failure and the mark is removed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from chromium import require_chromium
from live_server import free_port

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# The first word of a command line (after VAR=value assignments) in an untagged block.
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+\s+)*(?:risk|make|python|\.venv/bin/python|nice|pip|git)(?:\s|$)")
COMMENT = re.compile(r"\s+#(?:\s.*)?$")


@dataclass(frozen=True)
class Example:
    page: str  # relative to the repository
    line: int
    kind: str  # "shell", "python" or "doctest"
    text: str  # one command, or a whole Python block

    @property
    def key(self) -> str:
        first = self.text if self.kind == "shell" else next(ln for ln in self.text.splitlines() if ln.strip())
        return f"{self.page}: {first.strip()}"


def examples() -> list[Example]:
    found: list[Example] = []
    for page in PAGES:
        name = page.relative_to(ROOT).as_posix()
        lines = page.read_text(encoding="utf-8").splitlines()
        index = 0
        while index < len(lines):
            opening = re.match(r"^\s*```(\S*)\s*$", lines[index])
            index += 1
            if not opening:
                continue
            start, body = index, []
            while not lines[index].strip().startswith("```"):
                body.append(lines[index])
                index += 1
            index += 1
            language, filled = opening.group(1), [ln for ln in body if ln.strip()]
            if language == "python":
                text = "\n".join(body) + "\n"
                kind = "doctest" if filled and filled[0].lstrip().startswith(">>>") else "python"
                found.append(Example(name, start, kind, text))
            elif language in ("sh", "bash", "console") or (
                language == "" and filled and all(COMMAND.match(ln) for ln in filled)
            ):
                for offset, line in enumerate(body):
                    command = COMMENT.sub("", line).strip()
                    if command:
                        found.append(Example(name, start + offset + 1, "shell", command))
    return found


@dataclass(frozen=True)
class Run:
    instead: str | None = None  # a shell example's shortened form
    replace: tuple[tuple[str, str], ...] = ()  # a Python example's shortened form: each must match
    setup: str = ""  # Python run before a Python example (what the page's text before it set up)
    stdin: str = ""
    status: int = 0
    expect: str = ""  # in the output
    timeout: float = 180
    marks: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Serve:
    expect: str = ""  # in the server's output


@dataclass(frozen=True)
class Covered:
    tests: tuple[str, ...]  # "tests/file.py::test_name"
    why: str


@dataclass(frozen=True)
class Excerpt:
    source: str  # the file the page quotes


@dataclass(frozen=True)
class Synopsis:
    command: str  # whose --help names every option of the synopsis


Disposition = Run | Serve | Covered | Excerpt | Synopsis

QUIT = "quit\n"
BROWSER = pytest.mark.browser
BUILD_TESTS = (
    "tests/test_compiled.py::test_make_play_builds_only_when_the_build_is_missing_or_out_of_date",
    "tests/test_compiled.py::test_the_build_in_use_is_the_one_make_test_asked_for",
)
POSTGRESQL_SERVER = (
    "tests/test_server_processes.py::test_workers_option_two_processes_one_port_worker_killed",
    "tests/test_server_processes.py::test_two_processes_killed_in_turn_nothing_lost_or_doubled",
)
# docs/server.md's deployment guide: commands for the reader's machines (root, systemd, certbot), whose
# files the deployment test runs on machines of its own; the commands it runs as written are named.
DEPLOYMENT = (
    "tests/test_deploy_public.py::test_players_on_two_machines_one_killed_every_message_reaches_everyone",
    "tests/test_deploy_public.py::test_the_units_are_valid_systemd_units",
)
DEPLOYMENT_WHY = "changes the reader's machines: the test runs deploy/'s files on network namespaces"
DEPLOYED = Covered(DEPLOYMENT, DEPLOYMENT_WHY)
# The ladder's other runs: the same script as its --table example, run (shortened) below.
LADDER_RUN = ("tests/test_doc_examples.py::test_shell_example",)
LADDER_WHY = "bench_ladder.py, run once shortened for its --table example; each rung is hours of games"
# Benchmarks of the compiled build against pure Python: they need the compiled build, which the pure
# run of `make test` has not; the engine benchmark they run is run on its own (bench_engine.py).
BUILDS_COMPARED = (*BUILD_TESTS, "tests/test_doc_examples.py::test_shell_example")
BUILDS_WHY = "runs both builds: the compiled one exists only in make test's first run"

# docs/bots.md's issue 42 study: each folder of ../shared/studies/strong-ai/ (outside the repository), run
# here on the three records of it copied to tests/data/strong-ai/.
STUDY_FOLDERS = (
    ("t4-warlord-mixed-table", " --examples"),
    ("t4-warlord-vs-two", ""),
    ("t4-expert-warlord-table", ""),
    ("t4-6p-warlord-vs-five", " --examples"),
    ("t4-6p-expert-vs-five", " --examples"),
)

EXAMPLES: dict[str, Disposition] = {
    # README.md
    "README.md: make play": Covered(
        BUILD_TESTS,
        "builds the compiled core if needed, then `risk serve --open`(docs/web.md's example below)",
    ),
    "README.md: make test": Covered(BUILD_TESTS, "this suite itself, on each build"),
    "README.md: import risk": Run(expect=""),
    # docs/boards.md
    "docs/boards.md: from risk.maps import Board": Run(),
    "docs/boards.md: risk board import europe.map -o europe.json": Covered(
        (
            "tests/test_importers.py::test_each_format_imports_to_a_valid_board_that_bots_play_to_the_end",
            "tests/test_importers.py::test_the_same_stem_cards_file_and_an_explicit_one_are_read",
        ),
        "needs a Domination file of the reader's own",
    ),
    "docs/boards.md: risk board import islands.luxb -o islands.json": Covered(
        (
            "tests/test_importers.py::test_each_format_imports_to_a_valid_board_that_bots_play_to_the_end",
            "tests/test_importers.py::test_lux_outlines_and_colours_carried_over",
        ),
        "needs a Lux Delux file of the reader's own",
    ),
    "docs/boards.md: risk board import castles.xml --players 2-8 -o castles.json": Covered(
        (
            "tests/test_importers.py::test_each_format_imports_to_a_valid_board_that_bots_play_to_the_end",
            "tests/test_importers.py::test_players_option_declares_up_to_ten_with_scaled_armies",
        ),
        "needs a Conquer Club file of the reader's own",
    ),
    "docs/boards.md: risk board import world.map -o world.json": Covered(
        (
            "tests/test_importers.py::test_conquest_maps_import_with_or_without_their_map_section",
            "tests/test_importers.py::test_conquest_map_problems_name_the_line",
        ),
        "needs a Conquest file of the reader's own",
    ),
    "docs/boards.md: risk board validate europe.json && risk simulate --map europe.json": Run(
        instead="python -c 'import json; from risk.maps.generate import generate_board; "
        'json.dump(generate_board(30, 5, seed=1), open("europe.json", "w"))\' && '
        "risk board validate europe.json && "
        "risk simulate --map europe.json --games 1 --max-turns 20"
    ),
    "docs/boards.md: risk play --board crossroads": Run(stdin=QUIT, expect="Players: Ann (you)"),
    "docs/boards.md: risk simulate --map pangaea -p 10": Run(
        instead="risk simulate --map pangaea -p 10 --games 1 --max-turns 3"
    ),
    "docs/boards.md: risk board show crossroads": Run(expect="Ashford"),
    # docs/bots.md
    "docs/bots.md: risk tournament --bots search,continental,continental,continental --games 200 --workers 2 "
    "--seed 1": Run(
        instead="risk tournament --bots search,continental,continental,continental --games 1 "
        "--workers 1 --seed 1 --max-turns 3"
    ),
    "docs/bots.md: risk tournament --bots ./examples/bots/simple_bot.py,quick,random --json": Run(
        instead="risk tournament --bots ./examples/bots/simple_bot.py,quick,random --json --games 1 "
        "--max-turns 5"
    ),
    "docs/bots.md: risk bots --json": Run(expect='"quick"'),
    "docs/bots.md: nice -n 10 python benchmarks/bench_ladder.py --games 100 --workers 2 --only "
    "quick,fortress,continental --out ladder.jsonl": Covered(LADDER_RUN, LADDER_WHY),
    "docs/bots.md: nice -n 10 python benchmarks/bench_ladder.py --games 10 --workers 1 --only search --out "
    "ladder-search.jsonl": Covered(LADDER_RUN, LADDER_WHY),
    "docs/bots.md: nice -n 10 python benchmarks/bench_ladder.py --levels --only normal,hard --games 100 "
    "--workers 2 --out levels.jsonl": Covered(LADDER_RUN, LADDER_WHY),
    "docs/bots.md: python benchmarks/bench_ladder.py --table ladder.jsonl": Run(
        instead="python benchmarks/bench_ladder.py --games 1 --workers 1 --max-turns 10 --only quick --out "
        "ladder.jsonl > /dev/null && python benchmarks/bench_ladder.py --table ladder.jsonl"
    ),
    "docs/bots.md: nice -n 10 python benchmarks/bench_ladder.py --games 100 --workers 2 --only warlord --out "
    "ladder-warlord.jsonl": Covered(LADDER_RUN, LADDER_WHY),
    "docs/bots.md: nice -n 10 python benchmarks/bench_ladder.py --levels --only hard --games 100 --workers 2 "
    "--out levels-hard.jsonl": Covered(LADDER_RUN, LADDER_WHY),
    **{
        f"docs/bots.md: .venv/bin/python tools/study_rivals.py ../shared/studies/strong-ai/{folder}{flags}": Run(
            instead=f".venv/bin/python {ROOT}/tools/study_rivals.py {ROOT}/tests/data/strong-ai{flags}",
            expect="domination-hard-3 eliminates warlord-1" if flags else "turns eliminating",
        )
        for folder, flags in STUDY_FOLDERS
    },
    # docs/compiled.md
    "docs/compiled.md: make compiled": Covered(
        BUILD_TESTS, "a 4-minute build: make test builds it while it tests pure Python"
    ),
    "docs/compiled.md: make pure": Covered(
        ("tests/test_compiled.py::test_a_pure_run_imports_the_sources_even_beside_a_compiled_build",),
        "would remove the build that `make test`'s compiled run tests",
    ),
    "docs/compiled.md: risk --version": Run(expect="rules core:"),
    "docs/compiled.md: RISK_PURE=1 risk ...": Run(instead="RISK_PURE=1 risk --version", expect="pure Python"),
    "docs/compiled.md: .venv/bin/python benchmarks/compare_engine.py --builds --rounds 3 --scale 1 --only "
    "quick continental engine": Covered(BUILDS_COMPARED, BUILDS_WHY),
    "docs/compiled.md: .venv/bin/python benchmarks/bench_engine.py --only engine --repeats 3": Run(
        instead=".venv/bin/python benchmarks/bench_engine.py --only engine --repeats 1 --scale 0.02"
    ),
    "docs/compiled.md: .venv/bin/python benchmarks/compare_engine.py --builds --rounds 1 --scale 1 --only "
    "continental engine": Covered(BUILDS_COMPARED, BUILDS_WHY),
    "docs/compiled.md: .venv/bin/python benchmarks/compare_expert.py --players 3 4 --games 2": Covered(
        BUILDS_COMPARED, BUILDS_WHY
    ),
    # docs/odds.md
    "docs/odds.md: from risk.odds import roll_outcomes, invasion, chain": Run(),
    "docs/odds.md: risk odds A D [--stop K] [--json]": Synopsis("risk odds"),
    "docs/odds.md: risk odds A --chain D1,D2,... [--json]": Synopsis("risk odds"),
    # docs/play.md: the terminal game, left at once
    "docs/play.md: risk play": Run(stdin=QUIT, expect="Ann (you), Bob (bot: quick), Cy (bot: quick)"),
    "docs/play.md: risk play --players 4 --seat 2": Run(stdin=QUIT),
    "docs/play.md: risk play --level easy": Run(stdin=QUIT),
    "docs/play.md: risk play --bots easy,hard": Run(stdin=QUIT),
    "docs/play.md: risk play --bots random,quick": Run(stdin=QUIT),
    "docs/play.md: risk play --hotseat --players 3": Run(stdin=QUIT),
    "docs/play.md: risk play --humans 1,3 --players 4": Run(stdin=QUIT),
    "docs/play.md: risk play --rules 1993 --seed 42 --save game.risk": Run(stdin=QUIT),
    "docs/play.md: risk play --load game.risk": Run(
        instead="echo quit | risk play --rules 1993 --seed 42 --save game.risk > /dev/null && "
        "risk play --load game.risk",
        stdin=QUIT,
    ),
    "docs/play.md: risk play --load": Run(
        instead="echo quit | risk play > /dev/null && risk play --load", stdin="q\n", expect="Which game?"
    ),
    "docs/play.md: risk play --game secret-mission": Run(stdin=QUIT),
    "docs/play.md: risk play --game capital --option capitals-to-win=short --players 4": Run(stdin=QUIT),
    "docs/play.md: risk play --game two-player --rules 2003": Run(stdin=QUIT),
    "docs/play.md: risk play --game mission --rules 2003": Run(stdin=QUIT),
    "docs/play.md: risk play --hotseat --game capital": Run(stdin=QUIT),
    "docs/play.md: risk play --game team --rules 2003 --players 4": Run(stdin=QUIT, expect="Teams:"),
    # docs/protocol.md: ./mybot is the reader's bot; the example bot stands in for it
    "docs/protocol.md: risk tournament --bots ./mybot,quick,continental --games 20": Run(
        instead="risk tournament --bots ./examples/bots/simple_bot.py,quick,continental --games 1 "
        "--max-turns 5"
    ),
    "docs/protocol.md: risk tournament --bots ./mybot,hard,hard --games 20": Run(
        instead="risk tournament --bots ./examples/bots/simple_bot.py,hard,hard --games 1 --max-turns 3"
    ),
    # docs/reliability.md
    "docs/reliability.md: .venv/bin/python benchmarks/bench_crash.py --games 50 --kills 20 --outages 5 "
    "--outage-seconds 5 --baseline": Covered(
        (
            "tests/test_server_crash.py::test_killed_at_random_moments_every_game_ends_as_without_a_kill",
            "tests/test_server_db_down.py::"
            "test_database_stopped_mid_game_players_try_again_and_the_server_recovers",
        ),
        "a soak of a real server killed again and again, on SQLite and a PostgreSQL cluster",
    ),
    "docs/reliability.md: git archive 8d71b17 | (mkdir -p /tmp/risk-base && tar -x -C /tmp/risk-base)": Covered(
        (
            "tests/test_server_restart.py::"
            "test_a_game_stored_by_an_older_release_is_loaded_in_the_background_and_goes_on",
        ),
        "an older release checked out of this repository, for the comparison below",
    ),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_restart.py --games 0,10,100,1000 --base "
    "/tmp/risk-base/src": Run(
        instead=".venv/bin/python benchmarks/bench_restart.py --games 0,2 --stores stores"
    ),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_load.py --games 50 --humans 25 --seconds 60": Run(
        instead=".venv/bin/python benchmarks/bench_load.py --games 2 --humans 1 --seconds 4 --every 2"
    ),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_load.py --games 50 --humans 25 --seconds 60 --db "
    "postgresql": Covered(POSTGRESQL_SERVER, "the same soak on a throwaway PostgreSQL cluster"),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_load.py": Covered(
        ("tests/test_server_restart.py::test_startup_serves_at_once_and_loads_a_game_on_its_first_page",),
        "the 10-minute soak; its shortened form is run above",
    ),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_load.py --db "
    "postgresql+psycopg://USER:PASSWORD@127.0.0.1:5432/NAME": Covered(
        POSTGRESQL_SERVER, "needs the reader's PostgreSQL server"
    ),
    "docs/reliability.md: .venv/bin/python benchmarks/bench_players.py --players 40 --processes 2 "
    "--play-seconds 20": Covered(
        ("tests/test_bench_players.py::test_a_small_run_signs_up_matches_and_plays",),
        "needs a PostgreSQL cluster; the test runs it with 8 players on 2 processes",
    ),
    "docs/reliability.md: nice -n 19 .venv/bin/python benchmarks/bench_players.py": Covered(
        ("tests/test_bench_players.py::test_a_small_run_signs_up_matches_and_plays",),
        "2,000 players for ten minutes; its small form is run by the test",
    ),
    # docs/research.md
    "docs/research.md: pip install 'risk[research]'": Covered(
        ("tests/test_doc_examples.py::test_the_research_extra_has_what_the_page_says",),
        "an install from PyPI",
    ),
    "docs/research.md: import numpy as np": Run(replace=(("max_turns=500", "max_turns=10"),)),
    "docs/research.md: from risk.env import RiskGymEnv": Run(),
    "docs/research.md: import gymnasium": Run(
        replace=(
            ("n_steps=256, batch_size=64", "n_steps=32, batch_size=32"),
            ("total_timesteps=512", "total_timesteps=64"),
        )
    ),
    "docs/research.md: from risk.env import RiskVectorEnv  # (importing risk.env registers the ids)": Run(),
    "docs/research.md: from risk.env import RiskEnv": Run(expect="expected share of the board after it"),
    "docs/research.md: import pyspiel": Run(expect="[0.0, 0.0, 0.0]"),
    'docs/research.md: >>> env = RiskEnv("2008", "world", ["agent", "quick", "quick"])': Run(
        setup=">>> from risk.env import RiskEnv\n"
    ),
    "docs/research.md: .venv/bin/python benchmarks/bench_env.py": Run(
        instead=".venv/bin/python benchmarks/bench_env.py --games 1 --repeats 1 --only 2008-3"
    ),
    "docs/research.md: RISK_PURE=1 .venv/bin/python benchmarks/bench_env.py": Run(
        instead="RISK_PURE=1 .venv/bin/python benchmarks/bench_env.py --games 1 --repeats 1 --only 2008-3",
        expect="pure Python (RISK_PURE=1)",
    ),
    "docs/research.md: .venv/bin/python benchmarks/bench_env.py --quick": Run(
        instead=".venv/bin/python benchmarks/bench_env.py --quick --games 1 --repeats 1 --only 2008-3"
    ),
    "docs/research.md: .venv/bin/python benchmarks/bench_env.py --max-turns 20": Run(
        instead=".venv/bin/python benchmarks/bench_env.py --max-turns 20 --games 1 --repeats 1 --only 2008-3"
    ),
    "docs/research.md: .venv/bin/python benchmarks/bench_env_floor.py --games 6 --only 1993-2 1993-3 1993-4 1993-5 1993-6 2003-4 2003-6 2008-4 2008-5": Run(
        instead=".venv/bin/python benchmarks/bench_env_floor.py --games 1 --repeats 1 --steps 500 --only 2008-3"
    ),
    "docs/research.md: pip install 'risk[learn]'": Covered(
        ("tests/test_doc_examples.py::test_the_learn_extra_has_what_the_page_says",),
        "an install from PyPI",
    ),
    "docs/research.md: python examples/maskable_ppo.py": Covered(
        ("tests/test_env_learning.py::test_the_maskable_ppo_baseline_runs_a_few_thousand_steps",),
        "30 minutes of training: the test runs it shortened",
    ),
    "docs/research.md: python examples/learn/train.py --workers 2": Covered(
        ("tests/test_learn_example.py::test_a_short_training_run_writes_weights_that_load",),
        "minutes of training, and it writes the shipped weights",
    ),
    "docs/research.md: python examples/learn/evaluate.py --workers 2": Covered(
        ("tests/test_learn_example.py::test_evaluate_prints_win_rates_with_intervals",), "400 games"
    ),
    "docs/research.md: risk simulate --bots quick,fortress,continental --games 10000 --seed 1 --out "
    "runs.parquet --workers 2": Run(
        instead="risk simulate --bots quick,fortress,continental --games 2 --seed 1 --out "
        "runs.parquet --workers 2 --max-turns 30"
    ),
    "docs/research.md: risk simulate --game secret-mission --players 4 --games 500 --out "
    "data/missions.parquet --no-turns": Run(
        instead="risk simulate --game secret-mission --players 4 --games 2 --out "
        "data/missions.parquet --no-turns --max-turns 30"
    ),
    "docs/research.md: from risk.play.batch import simulate_to_parquet, turns_path": Run(
        replace=((", 1000,", ", 2,"), ("max_turns=500", "max_turns=30"))
    ),
    "docs/research.md: import pyarrow.compute as pc": Run(
        # only the files it reads: the block imports what it uses itself
        setup="from risk.play.batch import simulate_to_parquet\n"
        "from risk.rules.options import Rules\n"
        "simulate_to_parquet('runs.parquet', Rules.preset('2008'), ['quick'] * 3, 2, seed=1, "
        "max_turns=30)\n"
    ),
    "docs/research.md: risk tournament --bots hard,normal,easy --games 2000 --backend ray": Covered(
        (
            "tests/test_ray.py::test_the_command_on_its_own_ray_leaves_nothing_behind",
            "tests/test_ray.py::test_a_ray_tournament_is_the_local_one",
        ),
        "starts a Ray of its own",
    ),
    "docs/research.md: risk simulate --games 100000 --out runs.parquet --backend ray --address head:6379": Covered(
        (
            "tests/test_ray.py::test_ray_batch_files_are_the_local_ones",
            "tests/test_ray.py::test_an_address_nothing_answers_at_is_a_clear_error",
        ),
        "needs the reader's Ray cluster",
    ),
    # docs/rules-core.md: the sources it quotes
    "docs/rules-core.md: @trait": Excerpt("src/risk/rules/variants/capital.py"),
    "docs/rules-core.md: OptionInfo(": Excerpt("src/risk/rules/options.py"),
    "docs/rules-core.md: card_value_cap: int = 0  # in Rules: 0, off, so every preset stays its rulebook's": Excerpt(
        "src/risk/rules/options.py"
    ),
    "docs/rules-core.md: class CardValueCap(Variant[State]):": Excerpt("src/risk/rules/variants/card_cap.py"),
    # docs/server.md: the deployment guide
    "docs/server.md: sudo -u postgres createuser --pwprompt risk": DEPLOYED,
    "docs/server.md: sudo -u postgres createdb --owner risk risk": DEPLOYED,
    "docs/server.md: sudo useradd --system --home-dir /var/lib/risk --shell /usr/sbin/nologin risk": DEPLOYED,
    "docs/server.md: sudo python3 -m venv /opt/risk && sudo /opt/risk/bin/pip install ./risk": DEPLOYED,
    "docs/server.md: sudo install -d -m 0750 -g risk /etc/risk": DEPLOYED,
    "docs/server.md: sudo install -m 0640 -g risk deploy/systemd/risk.env /etc/risk/risk.env": DEPLOYED,
    "docs/server.md: sudo openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "
    "/etc/risk/vapid.pem": Covered(DEPLOYMENT[:1], "run by the test as written, its key file elsewhere"),
    "docs/server.md: sudo chgrp risk /etc/risk/vapid.pem && sudo chmod 0640 /etc/risk/vapid.pem": DEPLOYED,
    "docs/server.md: sudo install -m 0644 deploy/systemd/risk@.service /etc/systemd/system/": DEPLOYED,
    "docs/server.md: sudo systemctl enable --now risk@8000": DEPLOYED,
    "docs/server.md: sudo certbot certonly --webroot -w /var/www/html -d games.example.org --deploy-hook "
    "'systemctl reload nginx'": Covered(
        DEPLOYMENT[:1], "needs the site's public name; the test makes a certificate of its own"
    ),
    "docs/server.md: sudo install -m 0644 deploy/nginx/risk.conf /etc/nginx/sites-available/risk": DEPLOYED,
    "docs/server.md: sudo ln -s ../sites-available/risk /etc/nginx/sites-enabled/risk && sudo rm "
    "/etc/nginx/sites-enabled/default": DEPLOYED,
    "docs/server.md: sudo nginx -t && sudo systemctl reload nginx": Covered(
        DEPLOYMENT[:1], "the test checks the site with nginx -t, then starts its own nginx"
    ),
    "docs/server.md: sudo install -m 0755 deploy/backup/risk-backup /usr/local/bin/": DEPLOYED,
    "docs/server.md: sudo install -d -m 0700 -o risk -g risk /var/backups/risk": DEPLOYED,
    "docs/server.md: sudo install -m 0644 deploy/systemd/risk-backup.service deploy/systemd/risk-backup.timer "
    "/etc/systemd/system/": DEPLOYED,
    "docs/server.md: sudo systemctl enable --now risk-backup.timer": DEPLOYED,
    "docs/server.md: sudo systemctl stop 'risk@*'": DEPLOYED,
    "docs/server.md: pg_restore --clean --if-exists --no-owner --dbname=postgresql://risk:PASSWORD@10.0.0.5/risk "
    "/var/backups/risk/risk-20261130T033000Z.dump": Covered(
        DEPLOYMENT[:1], "run by the test as written on risk-backup's dump, into a database of its own"
    ),
    "docs/server.md: sudo systemctl start risk@8000": DEPLOYED,
    # docs/testing.md
    "docs/testing.md: make test": Covered(
        (*BUILD_TESTS, "tests/test_compiled.py::test_the_files_make_test_runs_on_both_builds_exist"),
        "this suite itself, on each build",
    ),
    "docs/testing.md: make test-all": Covered(
        (
            *BUILD_TESTS,
            "tests/test_any_board.py::test_every_bot_plays_every_game_on_two_hundred_generated_boards",
        ),
        "this suite itself with the long sweeps, on each build: an hour or more",
    ),
    # docs/web.md
    "docs/web.md: risk serve": Serve(),
    "docs/web.md: risk serve --open": Serve(),
    "docs/web.md: risk serve --host 0.0.0.0": Serve(expect="anyone"),
    "docs/web.md: risk serve --db postgresql+psycopg://user:pass@host/risk": Covered(
        POSTGRESQL_SERVER, "needs the reader's PostgreSQL server"
    ),
    "docs/web.md: risk serve --no-rate-limits": Serve(),
    "docs/web.md: risk serve --workers 4 --db postgresql+psycopg://risk:PASSWORD@127.0.0.1:5432/risk --host "
    "0.0.0.0": Covered(POSTGRESQL_SERVER, "needs the reader's PostgreSQL server"),
    "docs/web.md: .venv/bin/python benchmarks/bench_blitz.py --games 12": Run(
        instead=".venv/bin/python benchmarks/bench_blitz.py --games 1"
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_web_game.py --pace fast": Run(
        instead=".venv/bin/python benchmarks/bench_web_game.py --pace skip --place-rest --turns 3",
        timeout=300,
        marks=(BROWSER,),
    ),
    "docs/web.md: PYTHONPATH=/path/to/older/src .venv/bin/python benchmarks/bench_web_game.py --bot-delay 0": Covered(
        ("tests/test_doc_examples.py::test_shell_example",),
        "the same script, run above with --pace (an older release's src is the reader's)",
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_server.py": Covered(
        ("tests/test_doc_examples.py::test_shell_example",), "the same script, run with --json below"
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_server.py --json": Run(
        instead=".venv/bin/python benchmarks/bench_server.py --json --games 1 --stores sqlite --seconds 60 --max-actions 300"
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_server.py --profile /tmp/prof": Covered(
        ("tests/test_doc_examples.py::test_shell_example",),
        "the same script under py-spy, which is not installed",
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_notify.py": Covered(
        ("tests/test_bench_notify.py::test_the_table_names_each_variant",),
        "the same script with a few games; 1000 games take minutes",
    ),
    "docs/web.md: .venv/bin/python benchmarks/bench_notify.py --seconds 30 --json": Run(
        instead=".venv/bin/python benchmarks/bench_notify.py --games 3 --seconds 1 --rounds 1 --json"
    ),
}

ALL = examples()
KEYS = {example.key for example in ALL}  # (an example shown twice is run once)


def test_every_example_is_in_the_table() -> None:
    missing = [example.key for example in ALL if example.key not in EXAMPLES]
    stale = [key for key in EXAMPLES if key not in KEYS]
    assert not missing, f"examples of the docs not in EXAMPLES (run, shorten or name the test): {missing}"
    assert not stale, f"entries of EXAMPLES whose example is gone from the docs: {stale}"


def test_the_covering_tests_exist() -> None:
    for key, disposition in EXAMPLES.items():
        if isinstance(disposition, Covered):
            assert disposition.tests and disposition.why, key
            for node in disposition.tests:
                path, name = node.split("::")
                source = (ROOT / path).read_text(encoding="utf-8")
                assert re.search(rf"^def {name}\(", source, re.MULTILINE), f"{key}: no test {node}"


def test_the_research_extra_has_what_the_page_says() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    named = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras["research"]}
    assert {"pettingzoo", "gymnasium", "numpy"} <= named


def test_the_learn_extra_has_what_the_page_says() -> None:
    """The baseline's extra: the CPU build of torch that lies on the machines' disk (any other
    version is a CUDA download of gigabytes), SB3 with sb3-contrib, matplotlib."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    learn = project["optional-dependencies"]["learn"]
    named = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in learn}
    assert {
        "pettingzoo",
        "gymnasium",
        "numpy",
        "torch",
        "stable-baselines3",
        "sb3-contrib",
        "matplotlib",
    } <= named
    assert "torch==2.13.0" in learn


def params(kind: type, *shapes: str) -> list[Any]:
    """The examples whose entry is a ``kind``, of one of the ``shapes`` (shell, python, doctest)."""
    chosen, seen = [], set()
    for example in ALL:
        disposition = EXAMPLES.get(example.key)
        if isinstance(disposition, kind) and example.kind in shapes and example.key not in seen:
            seen.add(example.key)
            marks = disposition.marks if isinstance(disposition, Run) else ()
            chosen.append(pytest.param(example, disposition, id=example.key, marks=marks))
    return chosen


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder where the pages' relative paths work, and the user's data folders are its own."""
    for name in ("benchmarks", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    return tmp_path


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(folder / name.lower())
    env["BROWSER"] = "true"  # `risk serve --open`: a browser that opens nothing
    return env


def check(result: subprocess.CompletedProcess[str], run: Run) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == run.status, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert run.expect in output, output[-3000:]


@pytest.mark.parametrize(("example", "run"), params(Run, "shell"))
def test_shell_example(example: Example, run: Run, scratch: Path) -> None:
    if run.marks and BROWSER in run.marks:
        require_chromium()
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", run.instead or example.text],
        cwd=scratch,
        env=environment(scratch),
        input=run.stdin,
        capture_output=True,
        text=True,
        timeout=run.timeout,
    )
    check(result, run)


@pytest.mark.parametrize(("example", "run"), params(Run, "python", "doctest"))
def test_python_example(example: Example, run: Run, scratch: Path) -> None:
    code = example.text
    for old, new in run.replace:
        assert old in code, f"{example.key}: {old!r} is no longer in the example"
        code = code.replace(old, new)
    if example.kind == "doctest":
        (scratch / "example.txt").write_text(run.setup + code, encoding="utf-8")
        command = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "example.txt"]
    else:
        (scratch / "example.py").write_text(run.setup + code, encoding="utf-8")
        command = [sys.executable, "example.py"]
    result = subprocess.run(
        command, cwd=scratch, env=environment(scratch), capture_output=True, text=True, timeout=run.timeout
    )
    check(result, run)


@pytest.mark.parametrize(("example", "serve"), params(Serve, "shell"))
def test_server_example_starts(example: Example, serve: Serve, scratch: Path) -> None:
    port = free_port()
    with subprocess.Popen(
        [*example.text.split(), "--port", str(port)],
        cwd=scratch,
        env=environment(scratch),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as server:
        try:
            deadline, answered = time.monotonic() + 60, False
            while not answered and server.poll() is None and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
                        answered = reply.status == 200
                except OSError:
                    time.sleep(0.2)
        finally:
            server.terminate()
            output, _ = server.communicate(timeout=30)
    assert answered, output
    assert "Traceback" not in output and serve.expect in output, output


@pytest.mark.parametrize(("example", "excerpt"), params(Excerpt, "python"))
def test_quoted_source_is_the_source(example: Example, excerpt: Excerpt) -> None:
    def code(line: str) -> str:  # the comments are the page's own
        return COMMENT.sub("", line).strip()

    source = {code(line) for line in (ROOT / excerpt.source).read_text(encoding="utf-8").splitlines()}
    absent = [line for line in example.text.splitlines() if code(line) and code(line) not in source]
    assert not absent, f"{example.key}: not in {excerpt.source}: {absent}"


@pytest.mark.parametrize(("example", "synopsis"), params(Synopsis, "shell"))
def test_synopsis_options_are_the_commands(example: Example, synopsis: Synopsis, scratch: Path) -> None:
    result = subprocess.run(
        [*synopsis.command.split(), "--help"],
        cwd=scratch,
        env=environment(scratch),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    options = re.findall(r"--[a-z][a-z-]*", example.text)
    assert options and all(option in result.stdout for option in options), (options, result.stdout)


def test_the_sql_example_of_the_research_page_runs_in_duckdb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/research.md's SQL block (the page's one block in another language), as written, on files
    made by the Python API: DuckDB reads the two tables and joins them."""
    import duckdb

    from risk.play.batch import simulate_to_parquet
    from risk.rules.options import Rules

    page = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```sql\n(.*?)^```", page, flags=re.M | re.S)
    assert len(blocks) == 1
    simulate_to_parquet(
        tmp_path / "runs.parquet", Rules.preset("2008"), ["quick"] * 3, 3, seed=1, max_turns=60
    )
    connection = duckdb.connect()
    monkeypatch.chdir(tmp_path)  # the block names the files relative to where it runs
    rows = connection.execute(blocks[0]).fetchall()
    assert rows and all(0.0 <= share <= 1.0 for _, share in rows)
    assert [turn for turn, _ in rows] == sorted(turn for turn, _ in rows)
