# The interpreter for .venv: the system's own python3 when it is recent enough (a
# distribution's build, compiled with PGO and LTO, ran acescore with ~11% less CPU than a
# pyenv build here: bench/README.md), else the first python3 on PATH.  `make PYTHON=...`
# chooses another.
PYTHON ?= $(or $(shell for p in /usr/bin/python3 python3; do \
	$$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' \
	2>/dev/null && { echo $$p; break; }; done),python3)
VENV := .venv
BIN := $(VENV)/bin

# `make check` runs the tests not marked slow; `make test` runs them all.  -n: pytest-xdist's
# workers (auto: one per CPU; `make test XDIST=2`); --dist worksteal: a worker that runs out of
# tests takes half of another's remaining ones, so no worker idles while one still has a
# queue of slow golden or corpus tests.
XDIST ?= auto
DIST ?= worksteal

.PHONY: install test check lint format-check types contracts test-fast clean example bench chromium

install: $(BIN)/acescore chromium

# the HTML view test drives Debian's headless chromium (installed with apt-get when missing)
chromium:
	bash .ci/install-chromium.sh

# editable_mode=compat: the checkout on sys.path by a plain path .pth, not setuptools'
# import hook, which imported pathlib, urllib.parse and importlib.util at the start of
# every python process of the venv (docs/development.md)
$(BIN)/acescore: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]' --config-settings editable_mode=compat
	@touch $@

# the fast loop (<= 30 s on 2 CPUs): lint, format, types, the layers' contract, the tests not
# marked slow.  It stops at the first step that fails; `make -k check` runs every step.
check: lint format-check types contracts test-fast

# the whole suite in parallel, then the same static checks.  Its processes keep their compiled
# bytecode even where PYTHONDONTWRITEBYTECODE is set (in __pycache__, ignored by git): else each
# pytest worker rewrote and compiled every test module again (~6 s of CPU each) and each
# `python -m acescore` the suite starts compiled acescore again (~0.15 s each)
test: install
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n $(XDIST) --dist $(DIST)
	$(MAKE) --no-print-directory lint format-check types contracts

test-fast: $(BIN)/acescore
	$(BIN)/python -m pytest -q -n $(XDIST) --dist $(DIST) -m "not slow"

lint: $(BIN)/acescore
	$(BIN)/ruff check .

format-check: $(BIN)/acescore
	$(BIN)/ruff format --check .

types: $(BIN)/acescore
	$(BIN)/mypy

contracts: $(BIN)/acescore
	$(BIN)/lint-imports

example: install
	$(BIN)/acescore score examples/ref examples/sys -m

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .import_linter_cache
