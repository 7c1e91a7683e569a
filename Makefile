PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install test clean example bench chromium

install: $(BIN)/acescore chromium

# the HTML view test drives Debian's headless chromium (installed with apt-get when missing)
chromium:
	bash .ci/install-chromium.sh

$(BIN)/acescore: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

test: install
	$(BIN)/python -m pytest -q

example: install
	$(BIN)/acescore score examples/ref examples/sys -m

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
