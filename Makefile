# Two entry points for a fresh machine: `make play` and `make test`.
# Each creates the virtual environment on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play play-terminal test audit lint bench clean

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

test: $(BIN)/risk
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy
	$(BIN)/pytest

# Known vulnerabilities in the installed packages (pip-audit; says so when its service is unreachable).
audit: $(BIN)/risk
	$(BIN)/python tools/audit_deps.py

bench: $(BIN)/risk
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_odds.py

clean:
	rm -rf $(VENV)
