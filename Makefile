# The two commands of the README: `make sim` and `make test`. Everything lands in .venv and
# tools/mpvm/node_modules; nothing is installed system-wide, except a Chromium for the browser
# tests when Playwright cannot download its own (Debian's, installed only when run as root).
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
VM = tools/mpvm/node_modules/.package-lock.json

.PHONY: sim test current browser web screens bench flash uf2 generate clean

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

# Without npm (no Node.js) the tests that need the VM are skipped, saying how to install it;
# in CI (CI=1) npm must be there, and those tests fail without the VM (tests/conftest.py).
$(VM): tools/mpvm/package.json tools/mpvm/package-lock.json
	@if [ -z "$$CI" ] && ! command -v npm >/dev/null; then \
	  echo "No npm (Node.js 18+): the tests that need the MicroPython VM will be skipped"; \
	else npm ci --prefix tools/mpvm --no-audit --no-fund; fi

# Ended by a signal (the window closed, kill), the simulator exits 0 here rather than dying of
# it: make would report "*** [sim] Terminated" as if the recipe had failed. More options of
# `tablemate sim` through SIM_ARGS, e.g. `make sim SIM_ARGS="--drawing compact"`.
sim: $(VENV)/.sim
	$(BIN)/tablemate sim --exit-zero-on-signal $(SIM_ARGS)

# Both cores (pytest-xdist: each logic file's MicroPython run is one unit, tests/conftest.py),
# the ten slowest tests listed at the end. `make test PYTEST_ARGS=-x` passes more options.
test: $(VENV)/.dev $(VM) browser current
	$(BIN)/pytest -q -n auto --durations=10 $(PYTEST_ARGS)

# Generated files brought up to date before the tests read them: each generator checks first
# and rewrites only what is stale, saying so (commit what it rewrote). In CI (CI=1, set by
# .ci/run) nothing is rewritten: a stale file fails its test, which names `make generate`.
current: $(VENV)/.dev
	@[ -n "$$CI" ] || for gen in gen_fonts gen_icons gen_phones_page gen_package_json; do \
	  $(BIN)/python tools/$$gen.py --check >/dev/null 2>&1 || $(BIN)/python tools/$$gen.py; done
	@[ -n "$$CI" ] || $(BIN)/python tools/gen_hardware.py --check >/dev/null 2>&1 \
	  || $(BIN)/python tools/gen_hardware.py || echo "hardware/: stale, see make generate"
	@[ -n "$$CI" ] || $(BIN)/python -c "from tablemate_host import shots; shots.refresh()"
	@[ -n "$$CI" ] || $(BIN)/python tools/gen_sample.py --check >/dev/null 2>&1 \
	  || $(BIN)/python tools/gen_sample.py

# A Chromium for the browser tests (tests/web, through Playwright): one already there
# (tests/web/chromium.py says which), else Playwright's own download, else Debian's package when
# run as root (CI). Checked at every run: a second or so once one is there.
browser: $(VENV)/.dev
	@$(BIN)/python tests/web/chromium.py >/dev/null 2>&1 || { \
	  echo "Installing a Chromium for the browser tests"; \
	  timeout 300 $(BIN)/python -m playwright install chromium >/dev/null 2>&1 \
	  || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	       && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	  ; $(BIN)/python tests/web/chromium.py; }

# The web gadget: build web/ with the firmware and the VM into build/web, serve it on
# http://localhost:$(PORT)/ (WEB_BIND=0.0.0.0 to reach it from a phone on your network).
PORT ?= 8000
WEB_BIND ?= 127.0.0.1
web: $(VM)
	$(PYTHON) tools/build_web.py --serve $(PORT) --bind $(WEB_BIND)

screens: $(VENV)/.dev
	$(BIN)/tablemate screens

flash: $(VENV)/.dev
	$(BIN)/tablemate flash

bench: $(VENV)/.dev $(VM)
	$(BIN)/tablemate bench

# The UF2s (README, "Build one"): MicroPython v1.28.0 with firmware/ frozen in, for each board of
# UF2_BOARDS, into build/tablemate-<version>-<board>.uf2. MICROPY_DIR: MicroPython's source at
# that tag with its submodules (else a clone, which needs GitHub); PICOTOOL_SRC or PICOTOOL_DIR:
# picotool's source or an installed one (else a clone). tools/build_uf2.py says more.
UF2_BOARDS ?= RPI_PICO RPI_PICO_W RPI_PICO2
uf2:
	$(PYTHON) tools/build_uf2.py --boards "$(UF2_BOARDS)" $(if $(MICROPY_DIR),--micropython "$(MICROPY_DIR)") \
	  $(if $(PICOTOOL_SRC),--picotool-src "$(PICOTOOL_SRC)") $(if $(PICOTOOL_DIR),--picotool "$(PICOTOOL_DIR)")

# After changing fonts, icons, board.py, firmware files, screens or the report's plots: every
# generated file anew
# (tests fail while any of them is stale). The wiring PNG needs rsvg-convert (librsvg2-bin).
generate: $(VENV)/.dev
	$(BIN)/python tools/gen_fonts.py
	$(BIN)/python tools/gen_icons.py
	$(BIN)/python tools/gen_phones_page.py
	$(BIN)/python tools/gen_package_json.py
	$(BIN)/python tools/gen_hardware.py
	$(BIN)/tablemate screens
	$(BIN)/python tools/gen_sample.py

clean:
	rm -rf $(VENV) tools/mpvm/node_modules build/web
