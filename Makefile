# Two entry points for a fresh machine: `make play` and `make test`.
# Each creates the virtual environment on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play play-terminal compiled pure test audit lint bench clean

$(BIN)/risk: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/risk

# The game in the browser: http://127.0.0.1:8000/ (games kept in your data folder).
play: $(BIN)/risk
	$(BIN)/risk serve --open

play-terminal: $(BIN)/risk
	$(BIN)/risk play

# The compiled rules core (docs/compiled.md): mypyc over the typed core, extension modules beside
# the sources; used from then on while the sources are unchanged. `make pure` removes it.
compiled: $(BIN)/risk
	$(BIN)/python tools/build_compiled.py

pure: $(BIN)/risk
	$(BIN)/python tools/build_compiled.py --clean

# Both builds. Where the machine can compile (tools/build_compiled.py exits 3 where it cannot), the
# whole suite runs on the compiled build, the new one, whose differences could show anywhere; then
# the tests of the rules, engine, bots, odds and golden records run again on pure Python, which
# every machine runs (the rest of the suite reaches the core only through these). RISK_EXPECT_BUILD:
# tests/test_compiled.py checks each run tests the build it names.
PURE_TESTS := tests/test_compiled.py tests/test_golden_records.py tests/test_games.py tests/test_variants.py \
	tests/test_state_fields.py tests/test_saved_states.py tests/test_rules_resign.py tests/test_determinise.py \
	tests/test_perft.py tests/test_engine_properties.py tests/test_goal.py tests/test_maps.py \
	tests/test_card_value_cap.py tests/test_record.py tests/test_rulebook_examples.py tests/test_notation.py \
	tests/test_odds.py tests/test_odds_float.py tests/test_bots.py tests/test_bots_missions.py tests/test_bots_neutrals.py \
	tests/test_bots_teams.py tests/test_expert.py tests/test_levels.py tests/test_doctests.py

test: $(BIN)/risk
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	@$(BIN)/python tools/build_compiled.py; status=$$?; \
	if [ $$status -eq 0 ]; then \
		RISK_EXPECT_BUILD=compiled $(BIN)/pytest && \
		RISK_PURE=1 RISK_EXPECT_BUILD=pure $(BIN)/pytest $(PURE_TESTS); \
	elif [ $$status -eq 3 ]; then \
		RISK_EXPECT_BUILD=pure $(BIN)/pytest; \
	else \
		exit $$status; \
	fi

# Known vulnerabilities in the installed packages (pip-audit; says so when its service is unreachable).
audit: $(BIN)/risk
	$(BIN)/python tools/audit_deps.py

bench: $(BIN)/risk
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_odds.py

clean:
	$(PYTHON) tools/build_compiled.py --clean
	rm -rf $(VENV)
