# Two commands on a fresh machine: `make demo` and `make test`. Both bootstrap .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint typecheck bench crash eval clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: install
	$(BIN)/egmem demo

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check bot memory adapters egmem_eval tests
	$(BIN)/mypy

typecheck: install
	$(BIN)/mypy

bench: install
	$(BIN)/python -m pytest -q -m slow benchmarks
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

# kill -9 at twelve points inside commits, resume, compare with an uninterrupted run (~70 s;
# a three-kill variant runs in `make test`).
crash: install
	$(BIN)/python -m pytest -q -m slow tests/test_abuse_crash.py

clean:
	rm -rf $(VENV) data .pytest_cache
