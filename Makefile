# `make serve` and `make test` work on a fresh machine with only Python 3.11+: they create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed
WARM := $(VENV)/.warmed
# The compiled (numba) sources: numba's cache is kept per version of them (solvers/__init__.py), so a change
# to any of them (a pull, an edit) compiles afresh, here, before the server starts, not in its first requests.
COMPILED := $(shell grep -rl --include='*.py' 'from numba' solvers)

.PHONY: serve test test-fast test-whole lint openapi bench bench-load clean

$(STAMP): pyproject.toml constraints.txt README.md  # README.md: the installed description the front page quotes
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -c constraints.txt
	touch $(STAMP)

$(WARM): $(STAMP) $(COMPILED)
	$(BIN)/python -m app.warm  # every type's numba code cached, with a progress bar: no request compiles
	touch $(WARM)

serve: $(WARM)
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) --no-access-log --no-proxy-headers

# Three test processes on two cores: a third of the suite waits on programs, browsers and sockets at any moment, and a
# third process keeps both cores busy meanwhile; a fourth only makes them contend.
test: $(WARM)
	$(BIN)/ruff check .
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	bash scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -n 3 --dist loadgroup -q --durations=20

test-fast: $(WARM)
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	$(BIN)/python -m pytest -n 3 --dist loadgroup -q -m "not slow"

test-whole: $(WARM)  # every published puzzle and every large sample, not CI's share
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	bash scripts/ensure-chromium.sh
	PUZZLEGEN_WHOLE_SETS=1 $(BIN)/python -m pytest -n 3 --dist loadgroup -q

lint: $(STAMP)
	$(BIN)/ruff check .

openapi: $(STAMP)
	$(BIN)/python -m app.openapi

bench: $(WARM)
	for type in dabuhamienai battleship number_sums ubongo othello sudoku nonogram shikaku; do $(BIN)/python -m bench.bench_$$type || exit 1; done
	$(BIN)/python -m bench.versus_tatham --count 5

bench-load: $(WARM)
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .numba-cache
