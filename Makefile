# paiju: every target makes the virtual environment it needs (CONTRIBUTING.md: the loop).
#   make run [PORT=8000]   the table server: installs .[server] only
#   make test-fast         the cores, the protocol, the table machine, the client's unit tests
#   make test              everything CI checks (PostgreSQL, Redis, Chromium, Node needed)
PYTHON ?= python3
PORT ?= 8000
HOST ?= 127.0.0.1
PIP_VERSION := 26.3
VENV := .venv
BIN := $(VENV)/bin
# what is installed into .venv: the server alone (make run), or the whole toolchain (.[dev],
# which holds the server)
SERVER_STAMP := $(VENV)/.installed-server
DEV_STAMP := $(VENV)/.installed
NODE_STAMP := client/node_modules/.installed
SHELL := /bin/bash

# make test-fast: the cores, the Game protocol and the typed views, the table machine, with
# their doctests, less what needs a service or is slow (tests/conftest.py puts the markers on);
# of a game's folder: its core, game and views (its bots and environments run in make test)
FAST_PATHS := paiju/mazhan paiju/madiao paiju/games paiju/views.py tests/mazhan tests/madiao \
	tests/views tests/test_games.py tests/test_core_purity.py tests/env/test_registration.py \
	paiju/server/table tests/server/test_table_machine.py tests/server/test_house_faults.py \
	tests/server/test_claim_pause.py tests/server/table tests/test_import_rules.py \
	tests/test_game_folders.py tests/test_markers.py \
	--ignore-glob='paiju/*/env' --ignore-glob='paiju/*/bots' --ignore-glob='paiju/*/fast'
FAST_MARKS := not db and not redis and not browser and not slow
# --by-file: a line per test file done (tests/conftest.py), not a character per test
PYTEST_PROGRESS := -p xdist -n 2 --by-file -o console_output_style=classic

.PHONY: run score-example test test-fast services lint typecheck pytest bench tables clean \
	client client-check vitest

$(BIN)/python:
	@echo "==> creating the virtual environment $(VENV) ($(PYTHON) -m venv, pip $(PIP_VERSION))"
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check pip==$(PIP_VERSION)

$(SERVER_STAMP): pyproject.toml | $(BIN)/python
	@scripts/system_deps.sh
	@echo "==> installing paiju and the server's packages into $(VENV) (pip install -e '.[server]')"
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[server]'
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	@scripts/system_deps.sh
	@echo "==> installing paiju with its tests' and benchmarks' toolchain into $(VENV) (pip install -e '.[dev]')"
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@ $(SERVER_STAMP)

## The main job: the table server on http://127.0.0.1:$(PORT)/ (SQLite in ./data).
run: $(SERVER_STAMP) client
	@echo "==> serving the tables at http://$(HOST):$(PORT)/ (Ctrl-C stops)"
	$(BIN)/paiju serve --host $(HOST) --port $(PORT)

## The browser client (client/, TypeScript): built into paiju/web/dist when its sources
## changed (hash recorded in dist/build.json; Node only then); in CI a stale committed
## bundle fails instead.
client:
	@echo "==> client bundle"
	@$(PYTHON) scripts/client_bundle.py ensure

$(NODE_STAMP): client/package-lock.json
	@echo "==> installing the client's npm packages (npm ci)"
	cd client && npm ci --no-audit --no-fund
	touch $@

## The client's own checks: Biome (lint + format), tsc --noEmit (strict), Vitest, and the
## generated protocol types match the schema in docs/.
client-check: $(NODE_STAMP)
	@echo "==> client checks: Biome, tsc, Vitest, generated types"
	cd client && npx biome ci .
	cd client && npx tsc --noEmit -p .
	cd client && npx vitest run
	cd client && node scripts/gen-types.mjs --check

## The client's unit tests alone.
vitest: $(NODE_STAMP)
	@echo "==> client unit tests (Vitest)"
	cd client && npx vitest run

## Score the example hand and explain every figure.
score-example: $(SERVER_STAMP)
	$(BIN)/paiju mazhan score --explain examples/seed_hand.json

## The one-minute loop: no service, nothing slow.
test-fast: $(DEV_STAMP) $(NODE_STAMP)
	@echo "==> pytest (fast: the cores, the protocol, the table machine; -m \"$(FAST_MARKS)\")"
	$(BIN)/pytest $(PYTEST_PROGRESS) -m "$(FAST_MARKS)" $(FAST_PATHS)
	@$(MAKE) --no-print-directory vitest

## Everything CI checks: the services first, then the client bundle, lint, types, the
## client's checks and every test (doctests included; soaks only with --soak).
test: services client lint typecheck client-check pytest

## What make test needs from the machine: each one missing is named with the command that
## starts or installs it (Debian's names), before anything long runs.
services:
	@echo "==> services: PostgreSQL, Redis, Chromium and its fonts, Node"
	@missing=0; \
	if ! $(PYTHON) -c "import socket; socket.create_connection(('127.0.0.1', 5432), 2).close()" 2>/dev/null; then \
	    missing=1; echo "missing: PostgreSQL on 127.0.0.1:5432 (trust auth; the db tests)"; \
	    if [ -d /etc/postgresql ] && ls /etc/postgresql | grep -q .; then \
	        echo "  start it: pg_ctlcluster $$(ls /etc/postgresql | head -n 1) main start"; \
	    else echo "  install and start it: apt-get install -y postgresql && pg_ctlcluster \$$(ls /etc/postgresql) main start"; fi; \
	fi; \
	if ! $(PYTHON) -c "import socket; socket.create_connection(('127.0.0.1', 6379), 2).close()" 2>/dev/null; then \
	    missing=1; echo "missing: Redis on 127.0.0.1:6379 (the cluster, fault and throttle tests)"; \
	    command -v redis-server >/dev/null || echo "  install it: apt-get install -y redis-server"; \
	    echo "  start it: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no"; \
	fi; \
	if ! command -v npm >/dev/null || ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null; then \
	    missing=1; echo "missing: Node 20.19 or newer with npm (the client's checks)"; \
	    echo "  install it: apt-get install -y nodejs npm (or from nodejs.org)"; \
	fi; \
	if [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then \
	    echo "missing: Debian's chromium and fonts-wqy-microhei (the browser tests)"; \
	    echo "  install them: apt-get install -y chromium fonts-wqy-microhei"; \
	    if [ -n "$$CI" ]; then missing=1; else echo "  (the browser tests are skipped without them)"; fi; \
	fi; \
	if [ $$missing = 1 ]; then \
	    echo "make test stops here; make test-fast needs none of these (CONTRIBUTING.md)"; exit 1; \
	fi; \
	echo "all there"

lint: $(DEV_STAMP)
	@echo "==> ruff"
	$(BIN)/ruff check paiju tests benchmarks examples scripts
	$(BIN)/ruff format --check paiju tests benchmarks examples scripts

typecheck: $(DEV_STAMP)
	@echo "==> mypy (--strict)"
	$(BIN)/mypy paiju tests benchmarks examples scripts

pytest: $(DEV_STAMP)
	@echo "==> pytest (every test and doctest but the soaks; two workers; a line per file)"
	$(BIN)/pytest $(PYTEST_PROGRESS) --durations=15

## Run every benchmark and write benchmarks/RESULTS.md.
bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/run_all.py

## Rebuild the packaged complete-hand and shanten suit tables (tests check they match).
tables: $(DEV_STAMP)
	$(BIN)/python scripts/build_tables.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info client/node_modules
