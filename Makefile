# Shoebook. `make run` and `make test` work from a fresh clone with only Python 3.11 installed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

BROWSER_INSTALLED := $(VENV)/.browser-installed
NODE_INSTALLED := node_modules/.installed
PORT ?= 8000

.PHONY: run serve test test-js test-bench test-postgres test-browser test-browser-postgres lint format typecheck migrations-check messages ci clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

run: $(INSTALLED)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/python manage.py load_demo_tournament --if-empty
	$(BIN)/python manage.py load_demo_chemin --if-empty
	$(BIN)/python manage.py load_demo_count --if-empty
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Production: gunicorn with uvicorn workers (ASGI: the live streams hold no thread), behind
# WhiteNoise (hashed, compressed static files). Needs the production environment: DEBUG=0,
# SECRET_KEY, ALLOWED_HOSTS (and DATABASE_URL for PostgreSQL). Only a proxy listed in
# FORWARDED_ALLOW_IPS (none by default) is trusted for the client's address (X-Forwarded-For): the
# settings read the same list, for the login lockout and the reset allowance.
serve: $(INSTALLED)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input --verbosity 0
	$(BIN)/gunicorn shoebook.asgi --worker-class uvicorn_worker.UvicornWorker \
		--bind $${BIND:-127.0.0.1:8000} --workers $${WORKERS:-3} --graceful-timeout 10 \
		--access-logfile - --forwarded-allow-ips "$${FORWARDED_ALLOW_IPS:-}"

# The table page's client state (node's test runner, fast-check from npm; Node 18 or newer).
$(NODE_INSTALLED): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $(NODE_INSTALLED)

test-js: $(NODE_INSTALLED)
	node --test tests/js/

# The suite runs in TEST_WORKERS processes (pytest-xdist; 1: in this process). The browser suite
# needs the browser extra and Chromium: `make test-browser` runs it.
TEST_WORKERS ?= 2
PARALLEL := $(if $(filter-out 1,$(TEST_WORKERS)),-n $(TEST_WORKERS))

test: $(INSTALLED) test-js
	$(BIN)/python -m pytest --ignore=tests/browser $(PARALLEL)

# Every benchmark in bench/ at its smoke size (the table's, in a browser, runs with test-browser).
test-bench: $(INSTALLED)
	$(BIN)/python -m pytest -m bench --ignore=tests/browser $(PARALLEL)

# The suite again on a throwaway PostgreSQL cluster on loopback (Debian's postgresql package), where
# PostgreSQL can change the answer: not the tests that touch no database (tests/conftest.py marks
# them no_database) nor those marked one_database, which `make test` ran; the property tests draw
# fewer examples (the second-database profile, tests/conftest.py). Everything:
# POSTGRES_MARKERS='not browser and not bench'.
POSTGRES_MARKERS ?= not browser and not bench and not no_database and not one_database

test-postgres: $(INSTALLED)
	HYPOTHESIS_PROFILE=second-database scripts/with-postgres \
		$(BIN)/python -m pytest --ignore=tests/browser -m '$(POSTGRES_MARKERS)' $(PARALLEL)

$(BROWSER_INSTALLED): $(INSTALLED)
	$(BIN)/python -m pip install --quiet -e '.[dev,browser]'
	touch $(BROWSER_INSTALLED)

# Needs Debian's chromium at /usr/bin/chromium (CI installs it; see .ci/run). Some of its tests
# drive the production server (gunicorn, DEBUG off) over the same test database: a file on SQLite.
# Each worker has its own test database, production server and Chromium: the tests mostly wait
# on pages and servers, so two workers on two cores take about two thirds of the time of one.
test-browser: $(BROWSER_INSTALLED)
	$(BIN)/python -m pytest -m browser tests/browser $(PARALLEL)

# The same on a throwaway PostgreSQL cluster (what CI runs).
test-browser-postgres: $(BROWSER_INSTALLED)
	scripts/with-postgres $(BIN)/python -m pytest -m browser tests/browser $(PARALLEL)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: $(INSTALLED)
	$(BIN)/mypy

# Refresh the Japanese catalogue after changing texts (needs GNU gettext's xgettext), then fill
# and compile it from locale/ja_translations.py. The compiled .mo is committed.
messages: $(INSTALLED)
	$(BIN)/python manage.py makemessages -l ja --ignore=.venv --ignore=bench --ignore=tests --no-location
	$(BIN)/python locale/apply_translations.py

migrations-check: $(INSTALLED)
	$(BIN)/python manage.py makemigrations --check --dry-run

ci: lint migrations-check test

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
