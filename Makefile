# paiju: every target makes the virtual environment it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run score-example test lint typecheck pytest bench tables clean client client-check

$(STAMP): pyproject.toml
	scripts/system_deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## The main job: the table server on http://127.0.0.1:8000 (SQLite in ./data).
run: $(STAMP) client
	$(BIN)/paiju serve

## The browser client (client/, TypeScript): built into paiju/web/dist when its sources
## changed (hash recorded in dist/build.json); in CI a stale committed bundle fails instead.
client: $(STAMP)
	$(BIN)/python scripts/client_bundle.py ensure

client/node_modules/.installed: client/package-lock.json
	cd client && npm ci --no-audit --no-fund
	touch $@

## The client's own checks: Biome (lint + format), tsc --noEmit (strict), Vitest, and the
## generated protocol types match the schema in docs/.
client-check: client/node_modules/.installed
	cd client && npx biome ci .
	cd client && npx tsc --noEmit -p .
	cd client && npx vitest run
	cd client && node scripts/gen-types.mjs --check

## Score the example hand and explain every figure.
score-example: $(STAMP)
	$(BIN)/paiju mazhan score --explain examples/seed_hand.json

## Everything CI checks: lint, types, tests (doctests included).
test: client lint typecheck client-check pytest

lint: $(STAMP)
	$(BIN)/ruff check paiju tests benchmarks examples scripts
	$(BIN)/ruff format --check paiju tests benchmarks examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy paiju tests benchmarks examples scripts

pytest: $(STAMP)
	$(BIN)/pytest -n 2

## Run every benchmark and write benchmarks/RESULTS.md.
bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

## Rebuild the packaged complete-hand tables (tests check they match).
tables: $(STAMP)
	$(BIN)/python scripts/build_tables.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info client/node_modules
