# `make test` and `make demo` are each the only command a person needs on a fresh machine:
# both create (or reuse) .venv, install the project with its test tools, and run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# setuptools warns at every editable install (a page of asterisks) before a person's
# first demo: the install says one line, and errors still show.
QUIET_PIP := PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet

.PHONY: test demo images web-images lint typecheck typecheck-firmware pytest fuzz clean

# The tests' plugin ruleset (tests/plugin) is installed after turnlight, as any package that
# adds a ruleset would be: the registry finds it by its entry point. Only `make test` and
# the targets it runs install it and the test tools: `make demo` installs turnlight alone,
# so a person's `turnlight rulesets` lists the games, not the tests' card game (cards).
PLUGIN := tests/plugin
# The tests' plugin was tug (distribution turnlight-test-ruleset) before cards: a venv made
# then still declares tug's entry point, for a module that is gone, so it is uninstalled.
OLD_PLUGIN := turnlight-test-ruleset

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "installing turnlight into $(VENV) ..."
	@$(QUIET_PIP) --upgrade pip
	@$(QUIET_PIP) -e .
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP) pyproject.toml $(PLUGIN)/pyproject.toml
	@echo "installing the test tools and the tests' plugin ruleset into $(VENV) ..."
	@$(QUIET_PIP) -e '.[test]'
	@PYTHONWARNINGS=ignore $(BIN)/python -m pip uninstall --quiet --yes $(OLD_PLUGIN) 2>/dev/null || true
	@$(QUIET_PIP) -e $(PLUGIN)
	@touch $(TEST_STAMP)

test: $(TEST_STAMP) lint typecheck typecheck-firmware pytest

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(TEST_STAMP)
	$(BIN)/mypy host shared

# mypy over firmware/ and boot.py with each board's CircuitPython stubs, one board at a
# time (circuitpython_setboard rewrites the installed stubs; the default is restored).
typecheck-firmware: $(TEST_STAMP)
	$(BIN)/python -m host.lab.firmware_typecheck

# Spread over every core (pytest-xdist): the tests are independent, each makes its own ptys,
# files and journals.
pytest: $(TEST_STAMP)
	$(BIN)/pytest -q -n auto

# A long fuzzing run: every target of host/lab/fuzz.py (the encounter loader, the command
# parser, the journal damaged and cut short, deploy's symlinks and boot_out.txt files, ...)
# shares MINUTES; `make test` runs a short budget of each. docs/reliability.md keeps the
# figures. A failure prints the one command that replays it.
MINUTES ?= 10
fuzz: $(TEST_STAMP)
	$(BIN)/python -m host.lab.fuzz --minutes $(MINUTES)

# At a pace a person can follow: each action, then the board redrawn in place.
demo: $(STAMP)
	$(BIN)/turnlight demo --pace 0.5

# The README's pictures: every page and the key map of each board, drawn by the simulator.
images: $(STAMP)
	for board in trellis_m4 macropad pico_matrix; do \
		$(BIN)/turnlight sim --pictures docs/images --board $$board || exit 1; \
	done

# The web pages' pictures (docs/commands.md): both pages at a phone's size, 1280x720 and a
# TV's, in headless Chromium (apt-get install chromium chromium-driver).
web-images: $(TEST_STAMP)
	$(BIN)/python -m host.lab.web_pictures docs/images

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
