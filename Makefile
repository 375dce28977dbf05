# Two commands set everything up from a fresh clone:
#   make play   - venv, install, build the C solver, start the game
#   make test   - the same plus the dev tools, then ruff and the whole test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
C_SRC  := $(wildcard src/preferans/solver/*.c src/preferans/solver/*.h)
ARGS   ?=

.PHONY: play test install dev build lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip setuptools wheel

$(VENV)/.installed: $(PY) pyproject.toml $(wildcard setup.py)
	$(PIP) install -q -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PIP) install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed build

dev: $(VENV)/.installed-dev build

# Rebuild the C extension in place whenever its sources change; compile the gettext
# catalogues (locale/*/LC_MESSAGES/*.po -> .mo, build outputs).
build: $(VENV)/.installed
	@if [ -f setup.py ] && [ -n "$(C_SRC)" ]; then $(PY) setup.py -q build_ext --inplace; fi
	@$(VENV)/bin/pybabel -q compile -d src/preferans/locale -D preferans

play: install
	$(VENV)/bin/preferans play $(ARGS)

lint: dev
	$(VENV)/bin/ruff check src tests benchmarks tools

test: dev lint
	$(VENV)/bin/python -m pytest -n 2 --dist loadfile -q $(ARGS)

bench: install
	$(VENV)/bin/preferans bench solver

clean:
	rm -rf build dist src/*.egg-info .pytest_cache .ruff_cache
	find src -name '*.so' -delete
	find src -name '*.mo' -delete
