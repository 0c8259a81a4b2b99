# Referee developer tasks. Every target sets up .venv first (once; again only
# when pyproject.toml changes).
#
#   make serve [PORT=8000] [HOST=0.0.0.0]   play: serve on the LAN
#   make test                              every test
#   make bench                             the speed targets

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCHES := engine_bench server_bench vision_bench store_bench upload_bench check_bench stats_bench
PORT ?= 8000
HOST ?= 0.0.0.0

.PHONY: install serve test bench

install: $(STAMP)

$(PY):
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
