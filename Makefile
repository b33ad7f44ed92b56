# One obvious command per task. Each target creates .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
PYTEST_ARGS ?=

.PHONY: demo test lint bench eval venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-core

venv: $(STAMP)

demo: $(VENV)/.installed-core
	$(BIN)/charlotte demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy --strict src

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench

# The whole default suite with the offline model (or MODEL=…); not part of `make test`.
eval: $(STAMP)
	$(BIN)/charlotte eval $(if $(MODEL),--model $(MODEL)) --out .charlotte/eval

clean:
	rm -rf $(VENV) .charlotte .pytest_cache .mypy_cache .ruff_cache
