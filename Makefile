# rummykit: the two set-up commands are `make book` and `make test`.
# Each creates (or reuses) the virtual environment .venv and installs what it needs.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: book serve test test-fast tier-times lint soak lab benchmarks tables slides student-edition assignments clean

$(STAMP): pyproject.toml setup.py $(wildcard rummykit/_native/*.c rummykit/_native/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

## Build the Jupyter Book, executing every notebook, with its live notebooks (JupyterLite in
## book/_build/html/lite; book/_ext/live_book.py), and the student book beside it
## (build/student-book/html: no solutions, no answers); prints where each is.
# book/_build/.html-built marks a build that succeeded: the browser test reuses it. The
# first build fetches the Pyodide core (npm) and the live notebooks' wheels (PyPI) into
# build/lite; later builds reuse them. A doit database left by an earlier lite build makes
# the next one leave out the local Pyodide (the kernel then tries a CDN): it goes first.
# Then the student book (rummykit/teach/student_book.py): the same chapters with no
# solution and no answer, in build/student-book/html, linked from neither book; its
# notebooks are not run again (about 20 s). Last, the slides' reveal.js, require.js and
# jQuery from npm (once), so that a first `make slides` works offline.
book: $(STAMP)
	rm -f book/.jupyterlite.doit.db .jupyterlite.doit.db
	$(BIN)/jupyter-book build book --warningiserror --keep-going --quiet
	touch book/_build/.html-built
	@echo "The book is at $(CURDIR)/book/_build/html/index.html (make serve for the live notebooks)"
	$(BIN)/python -m rummykit.teach.student_book build/student-book
	$(BIN)/python -m rummykit.teach.slides --fetch

## Serve the built book on http://127.0.0.1:8000 (PORT=...): the live notebooks run only
## over HTTP, not from file://.
PORT ?= 8000
serve:
	test -f book/_build/.html-built || $(MAKE) book
	@echo "Serving the book at http://127.0.0.1:$(PORT)/ (Ctrl+C stops)"
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 --directory book/_build/html

## Run every test: unit, doctests, property tests, notebooks (the book's chapters checked on
## the book's own run, tests/test_notebooks_executed.py; nbval for notebooks/activity) and browser tests,
## on two pytest-xdist workers (WORKERS=N for another count, WORKERS=0 for one process).
# Two, not -n auto: the project's machines have two cores, and auto counts physical cores
# (a 2-vCPU machine with SMT may report one); beyond two the browser tests, one chain on
# one worker (conftest.py), bound the run. Measured on 2026-12-07 (session 30) from a
# clean clone by .ci/run on two quiet cores: 4,314 tests in 13 min 38 s to 17 min 5 s
# (four runs; the whole .ci/run, installs and lint included, 14 min 38 s to 18 min 30 s;
# 22-24 min of CPU). Serially (session 14) the suite took 25.7 min.
WORKERS ?= 2
# The wheels an autograder zip's requirements.txt installs (otter-grader and rummykit's
# teach extra), fetched from PyPI once, with the set-up: tests/test_grading_otter.py
# installs a built zip into a clean virtual environment from them, with no index.
OTTER_WHEELS := build/otter-wheels/.downloaded
$(OTTER_WHEELS): $(STAMP) pyproject.toml
	mkdir -p build
	$(BIN)/python -m rummykit.teach.grading.build --requirements > build/otter-requirements.txt
	$(BIN)/python -m pip download --quiet --dest build/otter-wheels -r build/otter-requirements.txt
	touch $(OTTER_WHEELS)

# --durations: the 30 longest tests close the run's output, CI's durations report
# (issue 51, item 6), read to choose what tests/support/tiers.py's LONG lists first.
# Python's cached bytecode and pytest's rewritten test modules are written even where the
# environment sets PYTHONDONTWRITEBYTECODE (as this machine's does): without them
# every worker and every child Python compiles the package again (collecting the fast
# tier took 12 s without, 6 s with).
test: export PYTHONDONTWRITEBYTECODE =
test: $(STAMP) $(OTTER_WHEELS)
	$(BIN)/python -m pytest -n $(WORKERS) --durations=30


## The soak: fuzz the engine for a million actions (tests/fuzz.py: one summary line, the exit
## status nonzero on any invariant break or mishandled input), then the soak tier, the full
## volume of the checks whose cases chosen for coverage `make test` runs (soak-marked).
soak: export PYTHONDONTWRITEBYTECODE =
soak: $(STAMP) $(OTTER_WHEELS)
	$(BIN)/python tests/fuzz.py --actions 1000000 --seed 0
	$(BIN)/python -m pytest -n $(WORKERS) --soak -m soak

## The fast tier, for a developer's loop: unit tests and doctests, without the notebooks,
## the browser tests and the slow tier (tests marked slow, listed in tests/support/tiers.py
## or measured at 0.05 s or more in tests/support/tier_times.json: 3,082 tests;
## Hypothesis's fast profile where a test sets no count), on WORKERS workers too.
# Measured on 2026-12-07 (session 30) on two cores: 17-25 s in all, 15-21 s of tests
# (81 s of tests for 3,582, 92 s in all, before the measured tier; 53 s on 2026-12-02, with
# 3,341 tests).
FAST := tests rummykit -m "not slow and not browser" -q --hypothesis-profile=fast -n $(WORKERS)
test-fast: export PYTHONDONTWRITEBYTECODE =
test-fast: $(STAMP)
	$(BIN)/python -m pytest $(FAST)

## Measure the fast tier again, the tests tests/support/tier_times.json moved out included,
## and rewrite that file (the tests of 0.05 s or more, the files of a set-up of 0.5 s):
## after tests grow or shrink. Failed tests do not stop it (their times still count, and the
## checks of the file's names fail until it is rewritten); a run that ends otherwise (an
## error of collection, an interruption) leaves the file as it was.
tier-times: export PYTHONDONTWRITEBYTECODE =
tier-times: export RUMMYKIT_TIER_TIMES = off
tier-times: $(STAMP)
	mkdir -p build
	$(BIN)/python -m pytest $(FAST) --durations=0 > build/tier-times.txt || [ $$? = 1 ] || { tail -30 build/tier-times.txt; exit 1; }
	$(BIN)/python -m tests.support.tiers build/tier-times.txt "make tier-times on $$(date -u +%F): $$(nproc) cores, $(WORKERS) workers"

## ruff's checks and its formatting, as CI runs them.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## The unit guide's lesson slides (book/teachers.md), one reveal.js deck per lesson, built
## offline from the committed notebooks into build/slides (rummykit/teach/slides.py).
slides: $(STAMP)
	$(BIN)/python -m rummykit.teach.slides build/slides

## The student edition: the notebooks with no worked solution and no answer in their
## answer boxes (rummykit/teach/edition.py), in build/student-edition.
student-edition: $(STAMP)
	$(BIN)/python -m rummykit.teach.edition notebooks build/student-edition

## Open JupyterLab on the notebooks.
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks $(if $(filter 0,$(shell id -u)),--allow-root)

## Time the solver, the game engine and the odds (see benchmarks/README.md).
benchmarks: $(STAMP)
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

## Regenerate data/ (the tables the book reads) and the extract of their exact odds that the
## widgets read without polars (rummykit/odds/known_odds.json and known_completion.json, for the
## book's live notebooks).
tables: $(STAMP)
	$(BIN)/rummykit tables
	$(BIN)/python -m rummykit.odds.known_odds
	$(BIN)/python -m rummykit.odds.known_completion

## Build the graded assignments (assignments/*.ipynb, otter-grader masters) into
## build/assignments/NAME/student (to hand out) and .../autograder (autograder.zip), for the
## course COURSE (the salt of every student's numbers: name your course and term, such as
## `make assignments COURSE=stat140-2026fall`); grade a folder of STUDENT_ID.ipynb with
## `python -m rummykit.teach grade ZIP FOLDER --out grades/` (book/teachers.md).
COURSE ?= rummykit-example
assignments: $(STAMP)
	$(BIN)/python -m rummykit.teach build --course $(COURSE)

clean:
	rm -rf book/_build .pytest_cache book/.jupyterlite.doit.db
