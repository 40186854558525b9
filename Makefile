# Two entry points for a fresh machine: `make play` and `make test`.
# Each creates the virtual environment on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play play-terminal compiled pure lint test test-all audit bench clean

# Python keeps each module it compiles (__pycache__) even where the environment sets
# PYTHONDONTWRITEBYTECODE (the machine `make test` is timed on does): with it, each of the hundreds of
# processes the tests start compiled every module of `risk` it imported again (about 0.3 s of CPU for
# the server's), and pytest rewrote every test module again in each of its processes.
unexport PYTHONDONTWRITEBYTECODE

# First what the compiled core's build needs (tools/build_compiled.py --requirements: mypyc, setuptools,
# numpy's types), so that `make test` starts the build (minutes of gcc) while the rest installs.
$(BIN)/mypyc: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet $$($(BIN)/python tools/build_compiled.py --requirements)
	touch $(BIN)/mypyc

$(BIN)/risk: $(BIN)/mypyc
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

# The tests in two tiers (docs/testing.md). `make test`, what CI runs: ruff, mypy, then the whole suite
# but the long sweeps (marked slow) on the build `make play` serves (the compiled one where the machine
# can compile: tools/build_compiled.py exits 3 where it cannot), and on the other build (pure Python)
# the tests of what the compiled core could get differently (marked both_builds: tests/tiers.py).
# The compiled core builds (about 2 minutes alone on 2 cores) while the lint and the pure-Python tests run:
# RISK_PURE=1 imports every module from its .py, whatever lands beside it meanwhile.
# `make test-all`, before a release and before a change to the engine or the bots: everything, the
# slow sweeps included, on both builds. TEST_JOBS processes (pytest-xdist) for all but the browser
# tests (marked browser), which run in one process: they wait on real timing, and a second process on
# 2 cores starved them. In `make test` the browser tests run beside the others, which run at the lowest
# priority (nice 19): the browser tests wait on timing and used 2 cores 65% of the time alone; the
# others take what they leave (measured on 2 cores: 1,014 s side by side, against 691 s and 507 s one
# after the other).
# RISK_EXPECT_BUILD: tests/test_compiled.py checks each run tests the build it names.
TEST_JOBS ?= 2
# AUDIT=audit: `make test` audits the packages once they are installed, before the tests (.ci/run).
AUDIT ?=
PYTEST_PARALLEL = $(BIN)/pytest -n $(TEST_JOBS) --durations=20
PYTEST_BROWSER = $(BIN)/pytest -p no:xdist --durations=20
COMPILED_RUN = RISK_EXPECT_BUILD=compiled
PURE_RUN = RISK_PURE=1 RISK_EXPECT_BUILD=pure

lint: $(BIN)/risk
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools examples
	npx --no-install eslint src/risk/web/js tests/js eslint.config.js
	node --test tests/js/
	$(BIN)/mypy

test: $(BIN)/mypyc
	@$(BIN)/python tools/build_compiled.py --can-build; status=$$?; \
	if [ $$status -eq 3 ]; then \
		$(MAKE) --no-print-directory $(BIN)/risk lint $(AUDIT) && \
		$(PURE_RUN) $(PYTEST_PARALLEL) -m "not browser and not slow" && \
		$(PURE_RUN) $(PYTEST_BROWSER) -m "browser and not slow"; \
		exit $$?; \
	elif [ $$status -ne 0 ]; then \
		exit $$status; \
	fi; \
	mkdir -p build; \
	$(BIN)/python tools/build_compiled.py >build/build_compiled.log 2>&1 & build=$$!; \
	$(MAKE) --no-print-directory $(BIN)/risk lint $(AUDIT) && \
		$(PURE_RUN) RISK_TEST_SAMPLE=1 $(PYTEST_PARALLEL) -m "both_builds and not slow" $$($(BIN)/python tests/tiers.py both-builds); \
	tested=$$?; \
	if [ $$tested -ne 0 ]; then kill $$build 2>/dev/null; wait $$build; exit $$tested; fi; \
	wait $$build; built=$$?; \
	if [ $$built -ne 0 ]; then cat build/build_compiled.log; exit $$built; fi; \
	tail -n 1 build/build_compiled.log; \
	echo "The browser tests run beside the others; their output follows theirs (build/browser_tests.log)."; \
	browser_files=$$($(BIN)/python tests/tiers.py browser) || exit $$?; \
	$(COMPILED_RUN) $(PYTEST_BROWSER) -m "browser and not slow" $$browser_files >build/browser_tests.log 2>&1 & browser=$$!; \
	$(COMPILED_RUN) nice -n 19 $(PYTEST_PARALLEL) -m "not browser and not slow"; tested=$$?; \
	wait $$browser; browsed=$$?; \
	cat build/browser_tests.log; \
	[ $$tested -eq 0 ] && [ $$browsed -eq 0 ]

test-all: lint
	@$(BIN)/python tools/build_compiled.py; status=$$?; \
	if [ $$status -eq 0 ]; then \
		$(COMPILED_RUN) $(PYTEST_PARALLEL) -m "not browser" && \
		$(COMPILED_RUN) $(PYTEST_BROWSER) -m browser && \
		$(PURE_RUN) $(PYTEST_PARALLEL) -m "not browser" && \
		$(PURE_RUN) $(PYTEST_BROWSER) -m browser; \
	elif [ $$status -eq 3 ]; then \
		$(PURE_RUN) $(PYTEST_PARALLEL) -m "not browser" && $(PURE_RUN) $(PYTEST_BROWSER) -m browser; \
	else \
		exit $$status; \
	fi

# The browser client's checks (package.json): ESLint over src/risk/web/js and the unit tests of its pure
# parts under Node's own test runner (tests/js), with the packages of package-lock.json (`npm ci`).
lint: node_modules/.package-lock.json
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
