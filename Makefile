# The two commands of the README's Quickstart, and what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DATA ?= ../shared/data/accuracy-shared-task
DB ?= accuracy.duckdb

.PHONY: demo test docs chromium postgresql install install-dev clean

# A virtual environment with the package installed (editable), redone when pyproject.toml or constraints.txt
# changes. uv installs into it: 40 s where pip takes 110 s for the test dependencies, with the same versions. It
# compiles the bytecode as pip does: where PYTHONDONTWRITEBYTECODE is set, every process would otherwise compile
# what it imports. The dependencies are those of constraints.txt, the versions the tests last passed with, for
# make install and make demo as for make install-dev (a wheel's pip install takes the newest the ranges of
# pyproject.toml allow, below the next major release of what the code uses the internals of).
UV := $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python
$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "uv==0.13.9"
	$(UV) -e . -c constraints.txt
	touch $@

# The tests run on the versions of constraints.txt, those the suite last passed with on a fresh clone (Python 3.11).
# factgenie without its dependencies (LLM clients, the Google Cloud SDK): tests/test_factgenie_package.py runs only
# its campaign loading code, whose imports are in the dev extras.
$(VENV)/.installed-dev: $(VENV)/.installed constraints.txt
	$(UV) -e ".[dev]" -c constraints.txt
	$(UV) --no-deps "factgenie==1.2.1"
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# Build the demo database (docs/demo.md): the shared-task data, lists generated from the gold list into the
# scratch folder $(DEMO_LISTS), the example submissions, the box-score checker's list, the participants' submissions
# when fetched, and a Mu-SHROOM and an MQM corpus from beside the data folder; then show the train leaderboard.
DEMO_LISTS ?= demo-lists
demo: install
	$(BIN)/accuracy-db demo --data $(DATA) --db $(DB) --lists $(DEMO_LISTS)
	$(BIN)/accuracy-db leaderboard --db $(DB) --split train --ci

# The dashboard's browser test drives Debian's chromium: installed when missing (as root), else the command to run.
chromium:
	sh .ci/install-chromium

# tests/test_postgres_export.py starts a private server of Debian's postgresql package: installed when missing.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql)

# One worker per core (pytest-xdist); a test file's tests stay on one worker, so its fixtures are made once. The
# project's modules are compiled first: where PYTHONDONTWRITEBYTECODE is set, each process the suite starts (the
# commands, the query processes, the dashboards) would compile what it imports again, 0.16 s a process.
test: install-dev chromium postgresql
	$(BIN)/python -m compileall -q accuracy_db etl dashboard benchmarks
	$(BIN)/python -m pytest -n auto --dist loadfile

# The docs site (docs/, mkdocs.yml) into site/; tests/test_docs.py builds it the same way.
docs: install-dev
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) build dist site *.egg-info $(DB) $(DEMO_LISTS)
