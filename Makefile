# Referee developer tasks. Every target sets up .venv first (once; again only
# when pyproject.toml changes).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCHES := engine_bench server_bench vision_bench

.PHONY: install serve test bench

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

serve: install
	$(VENV)/bin/referee serve

test: install
	$(PY) -m pytest

bench: install
	@set -e; for bench in $(BENCHES); do \
		if [ -f benchmarks/$$bench.py ]; then \
			echo "== benchmarks/$$bench.py"; $(PY) benchmarks/$$bench.py; \
		fi; \
	done
