# Two commands for a newcomer: `make run` and `make test`; `make dev` while changing the code.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# HTTPS=1 serves https with a certificate made on this computer, for the phones on its network.
HTTPS ?=
HOST ?= $(if $(HTTPS),0.0.0.0,127.0.0.1)
PORT ?= 5000
# Gunicorn's workers, as the README's Deployment runs them: each answers one request at a
# time, and they share the one SQLite file (WAL mode lets them).
WORKERS ?= 3
# With HTTPS=1, each server's options for the certificate `flask --app scorekeeper
# https-cert` makes (scorekeeper/certificate.py).
GUNICORN_TLS = $(if $(HTTPS),--certfile instance/https-cert.pem --keyfile instance/https-key.pem)
FLASK_TLS = $(if $(HTTPS),--cert instance/https-cert.pem --key instance/https-key.pem)

.PHONY: run dev prepare catalogs translations test lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The message catalogs (French, Japanese) as the app reads them: each language's .po
# compiled into its .mo.
TRANSLATIONS := scorekeeper/translations
COMPILE_CATALOGS = $(BIN)/pybabel compile -d $(TRANSLATIONS)
catalogs: $(VENV)/.installed
	$(COMPILE_CATALOGS)

# After changing what a reader reads: the template of the catalogs made again from the code
# (an engine's phrase(code, english) and counted(code, one, other) with the code as the
# message's context; _() and {% trans %} in templates), and each language's .po brought
# up to date from it, its new entries to translate.
translations: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k phrase:1c,2 -k counted:1c,2,3 \
		--no-location --no-wrap --sort-output --omit-header -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) \
		--no-wrap --no-fuzzy-matching --ignore-obsolete

# What both servers need first: the database up to date, with HTTPS the certificate, and
# the catalogs compiled.
prepare: $(VENV)/.installed
	$(BIN)/flask --app scorekeeper init-db
ifneq ($(HTTPS),)
	$(BIN)/flask --app scorekeeper https-cert
endif
	$(COMPILE_CATALOGS)

# A table is a deployment: the production server, started in this folder so that it reads
# gunicorn.conf.py.
run: prepare
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) $(GUNICORN_TLS) \
		'scorekeeper:create_app()'

# Flask's development server: reloads on every change, shows the debugger on an error.
dev: prepare
	$(BIN)/flask --app scorekeeper run --debug --host $(HOST) --port $(PORT) $(FLASK_TLS)

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist), test by test, except the tests that share a
# server of their own (the installed wheel's, gunicorn's): each such file stays on one worker
# by its xdist_group. TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
test: lint catalogs
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
