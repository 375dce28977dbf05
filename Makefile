# Two commands set everything up from a fresh clone:
#   make play   - venv, install, build the C solver, start the game
#   make test   - the same plus the dev tools, then ruff and the whole test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
C_SRC  := $(wildcard src/preferans/solver/*.c src/preferans/solver/*.h src/preferans/env/vector_c/*.[ch])
ARGS   ?=

.PHONY: play test install dev build lint bench clean asan-test

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
# catalogues (locale/*/LC_MESSAGES/{preferans,ui}.po -> .mo, build outputs).
build: $(VENV)/.installed
	@if [ -f setup.py ] && [ -n "$(C_SRC)" ]; then $(PY) setup.py -q build_ext --inplace; fi
	@$(VENV)/bin/pybabel -q compile -d src/preferans/locale -D "preferans ui"

play: install
	$(VENV)/bin/preferans play $(ARGS)

lint: dev
	$(VENV)/bin/ruff check src tests benchmarks tools examples

test: dev lint
	$(VENV)/bin/python -m pytest -n 2 --dist loadfile -q $(ARGS)

# The C extensions under AddressSanitizer and UBSan, built apart in build/asan (the normal .so
# in src/ is untouched), then the solver tests and the binding fuzz test against it (the vector
# environment's deal core: make asan-test ASAN_TESTS=tests/test_env_vector.py).
# Python itself is not instrumented, so libasan is preloaded; leaks are not checked (the
# interpreter's own allocations would drown them).  Slow: a few minutes.
ASAN_DIR   := build/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1 -g
ASAN_TESTS ?= $(wildcard tests/test_solver*.py)
asan-test: dev
	rm -rf $(ASAN_DIR) && mkdir -p $(ASAN_DIR)/lib
	cp -r src/preferans $(ASAN_DIR)/lib/ && find $(ASAN_DIR)/lib -name '*.so' -delete
	PREFERANS_SOLVER_CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" \
	  $(PY) setup.py -q build_ext --build-lib $(ASAN_DIR)/lib --build-temp $(ASAN_DIR)/tmp --force
	PYTHONPATH=$(ASAN_DIR)/lib \
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  sh -c '$(PY) -c "import preferans.solver._solver as s, sys; \
	    sys.exit(0 if \"$(ASAN_DIR)\" in s.__file__ else \"not the ASan build: \" + s.__file__)" && \
	    $(PY) -m pytest -q -p no:cacheprovider $(ASAN_TESTS) $(ARGS)'

bench: install
	$(VENV)/bin/preferans bench solver

clean:
	rm -rf build dist src/*.egg-info .pytest_cache .ruff_cache
	find src -name '*.so' -delete
	find src -name '*.mo' -delete
