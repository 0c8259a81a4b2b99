# Referee developer tasks. Every target sets up .venv first (once; again only
# when pyproject.toml changes, or when .venv was made by a Python older than 3.11).
#
#   make serve [PORT=8000] [HOST=0.0.0.0]   play: serve on the LAN
#   make test                              every test
#   make bench                             the speed targets
#
# Referee needs Python 3.11 or newer. PYTHON=python3.12 (say) makes .venv with another one.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCHES := engine_bench server_bench vision_bench store_bench upload_bench check_bench stats_bench
PORT ?= 8000
HOST ?= 0.0.0.0

# Checks $(PYTHON) before .venv is made: one line and status 1 when it is missing or older than 3.11.
NEEDS_PYTHON = found=$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
	|| { echo "Referee needs Python 3.11 or newer; found no Python at $(PYTHON)." >&2; exit 1; }; \
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	|| { echo "Referee needs Python 3.11 or newer; found $$found at $(PYTHON)." >&2; exit 1; }

# The version of the Python that made .venv, when it is older than 3.11 (else empty): that .venv is made again.
OLD_VENV := $(shell [ -x $(PY) ] && $(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2] if sys.version_info < (3, 11) else "")' 2>/dev/null)

.PHONY: install serve test bench old-venv

install: $(STAMP)

ifneq ($(OLD_VENV),)
$(PY) $(STAMP): old-venv
endif

old-venv:
	@$(NEEDS_PYTHON); \
	echo "$(VENV) was made by Python $(OLD_VENV); Referee needs 3.11 or newer: making it again with $(PYTHON) ($$found)..."
	rm -rf $(VENV)

$(PY):
	@$(NEEDS_PYTHON)
	@echo "Creating the virtual environment in $(VENV) (once)..."
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	@echo "Installing Referee and its dependencies into $(VENV) (about a minute, once; again only when pyproject.toml changes)..."
	$(PY) -m pip install --disable-pip-version-check --progress-bar off -e '.[test]'
	touch $(STAMP)
	@echo "Installed."

serve: install
	$(VENV)/bin/referee serve --host $(HOST) --port $(PORT)

test: install
	$(PY) -m pytest

bench: install
	@set -e; for bench in $(BENCHES); do \
		if [ -f benchmarks/$$bench.py ]; then \
			echo "== benchmarks/$$bench.py"; $(PY) benchmarks/$$bench.py; \
		fi; \
	done
