# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# HTTPS=1 serves https with a certificate made on this computer, for the phones on its network.
HTTPS ?=
HOST ?= $(if $(HTTPS),0.0.0.0,127.0.0.1)
PORT ?= 5000

.PHONY: run test lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/flask --app scorekeeper init-db
ifneq ($(HTTPS),)
	$(BIN)/flask --app scorekeeper https-cert
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT) \
		--cert instance/https-cert.pem --key instance/https-key.pem
else
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)
endif

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
