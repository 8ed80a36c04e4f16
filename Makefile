# `make serve` and `make test` work on a fresh machine with only Python 3.11+: they create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed

.PHONY: serve test test-fast test-whole lint openapi bench bench-load clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -c constraints.txt
	$(BIN)/python -c "from app.work import warm_up_worker; warm_up_worker()"  # every type's numba code cached: no request compiles
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) --no-access-log --no-proxy-headers

test: $(STAMP)
	$(BIN)/ruff check .
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	bash scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q --durations=20

test-fast: $(STAMP)
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q -m "not slow"

test-whole: $(STAMP)  # every published puzzle and every large sample, not CI's share
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-redis.sh
	bash scripts/ensure-chromium.sh
	PUZZLEGEN_WHOLE_SETS=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -q

lint: $(STAMP)
	$(BIN)/ruff check .

openapi: $(STAMP)
	$(BIN)/python -m app.openapi

bench: $(STAMP)
	for type in dabuhamienai battleship number_sums ubongo othello sudoku nonogram; do $(BIN)/python -m bench.bench_$$type || exit 1; done

bench-load: $(STAMP)
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .numba-cache
