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

# The game in the browser: http://127.0.0.1:8000/ (games kept in your data folder). First the compiled
# core (docs/compiled.md), built once where the machine can (the bots think about twice as fast);
# where it cannot, the pure-Python build serves the same game.
play: $(BIN)/risk
	-@$(BIN)/python tools/build_compiled.py --if-needed
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
# whole suite but the browser tests runs on the compiled build, then the whole suite on pure Python
# (what `make play` serves), which every machine runs. TEST_JOBS processes each (pytest-xdist); the
# browser tests (marked `browser`) run last in one process, since they wait on real timing and a
# second process on 2 cores can starve them. The docs' examples (tests/test_doc_examples.py) check the
# pages, not the build: they run once, on pure Python. RISK_EXPECT_BUILD: tests/test_compiled.py checks each
# run tests the build it names.
TEST_JOBS ?= 2
PYTEST_PARALLEL = $(BIN)/pytest -n $(TEST_JOBS) -m "not browser"
PYTEST_BROWSER = $(BIN)/pytest -p no:xdist -m browser

test: $(BIN)/risk
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools examples
	npx --no-install eslint src/risk/web/js tests/js eslint.config.js
	node --test tests/js/
	$(BIN)/mypy
	@$(BIN)/python tools/build_compiled.py; status=$$?; \
	if [ $$status -eq 0 ]; then \
		RISK_EXPECT_BUILD=compiled $(PYTEST_PARALLEL) --ignore=tests/test_doc_examples.py && \
		RISK_PURE=1 RISK_EXPECT_BUILD=pure $(PYTEST_PARALLEL) && \
		RISK_PURE=1 RISK_EXPECT_BUILD=pure $(PYTEST_BROWSER); \
	elif [ $$status -eq 3 ]; then \
		RISK_EXPECT_BUILD=pure $(PYTEST_PARALLEL) && RISK_EXPECT_BUILD=pure $(PYTEST_BROWSER); \
	else \
		exit $$status; \
	fi

# The browser client's checks (package.json): ESLint over src/risk/web/js and the unit tests of its pure
# parts under Node's own test runner (tests/js), with the packages of package-lock.json (`npm ci`).
test: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# Known vulnerabilities in the installed packages (pip-audit; says so when its service is unreachable).
audit: $(BIN)/risk
	$(BIN)/python tools/audit_deps.py

bench: $(BIN)/risk
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_odds.py

clean:
	$(PYTHON) tools/build_compiled.py --clean
	rm -rf $(VENV)
