# Blaze online: `make run` starts the site, `make test` runs lint and tests.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The interpreter the virtualenv is made from (`make deps PYTHON=/usr/bin/python3.11`): a
# statically linked PGO build runs the site about a tenth faster (docs/deployment.md).
PYTHON ?= python3

.PHONY: run test lint deps clean messages compiled

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

deps: $(STAMP)

# The site's bots think with the compiled engine where a C compiler is here (built once,
# again only when a hot module changes; about 2 minutes); else, or with COMPILED=0, as plain
# Python, which behaves the same.
COMPILED ?= 1
HOT_SOURCES := $(wildcard games/engine/*.py games/engine/*.pxd games/bots/*.py)

run: $(STAMP)
	@if [ "$(COMPILED)" != 0 ] && command -v cc >/dev/null; then \
	  $(MAKE) --no-print-directory games/_compiled.json \
	  || echo "No compiled build: the engine and bots run as plain Python."; fi
	$(PY) scripts/run_stack.py

games/_compiled.json: $(HOT_SOURCES) | $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,compiled]'
	$(PY) scripts/build_compiled.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# axe-core (package.json, pinned) for the browser tests' accessibility checks, when npm is here.
node_modules/.package-lock.json: package.json package-lock.json
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund; fi

test: $(STAMP) node_modules/.package-lock.json
	$(VENV)/bin/ruff check .
	source scripts/test_env.sh && $(VENV)/bin/pytest "$${BLAZE_TEST_ARGS[@]}"

# Refresh locale/*/LC_MESSAGES/*.po from the marked strings, then compile the .mo files
# (both are committed; needs GNU gettext: Debian's `gettext` package). See docs/i18n.md.
MAKEMESSAGES := $(PY) manage.py makemessages -l ja -l es --add-location=file --no-obsolete \
	-i '.venv/*' -i 'staticfiles/*' -i 'tests/*' -i 'build/*' -i 'node_modules/*'
messages: $(STAMP)
	$(MAKEMESSAGES) -d django
	$(MAKEMESSAGES) -d djangojs
	$(PY) manage.py compilemessages -i .venv

# Optional: the engine's and bots' hot modules as C extensions (Cython and a C compiler),
# about 1.5-2x faster; without them all runs as plain Python (docs/engine.md, "Compiled build").
compiled: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,compiled]'
	$(PY) scripts/build_compiled.py

clean:
	python3 scripts/build_compiled.py --clean
	rm -rf $(VENV) staticfiles .run build
