# The two commands of the README: `make sim` and `make test`. Everything lands in .venv and
# tools/mpvm/node_modules; nothing is installed system-wide.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
VM = tools/mpvm/node_modules/.package-lock.json

.PHONY: sim test screens bench flash generate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.sim: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e .
	touch $@

# Adafruit's SSD1306 driver (the virtual panel's independent reference) comes without its
# Adafruit-Blinka dependency: see tests/host/adafruit-requirements.txt.
$(VENV)/.dev: $(BIN)/python pyproject.toml tests/host/adafruit-requirements.txt
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/python -m pip install -q --no-deps -r tests/host/adafruit-requirements.txt
	touch $@

$(VM): tools/mpvm/package.json tools/mpvm/package-lock.json
	npm ci --prefix tools/mpvm --no-audit --no-fund

sim: $(VENV)/.sim
	$(BIN)/tablemate sim

test: $(VENV)/.dev $(VM)
	$(BIN)/pytest -q

screens: $(VENV)/.dev
	$(BIN)/tablemate screens

flash: $(VENV)/.dev
	$(BIN)/tablemate flash

bench: $(VENV)/.dev $(VM)
	$(BIN)/tablemate bench

# After changing fonts, icons, board.py, firmware files or screens: every generated file anew
# (tests fail while any of them is stale). The wiring PNG needs rsvg-convert (librsvg2-bin).
generate: $(VENV)/.dev
	$(BIN)/python tools/gen_fonts.py
	$(BIN)/python tools/gen_icons.py
	$(BIN)/python tools/gen_package_json.py
	$(BIN)/python tools/gen_hardware.py
	$(BIN)/tablemate screens

clean:
	rm -rf $(VENV) tools/mpvm/node_modules
