"""Generate the pin map and the wiring diagram in hardware/ from firmware/tablemate/board.py.

``BOARD`` in board.py is the single source of truth for pins. This script writes:
- the pin map table in hardware/README.md, between ``<!-- pinmap:start -->`` and
  ``<!-- pinmap:end -->`` (the rest of that file is written by hand);
- hardware/wiring.svg, the wiring diagram;
- hardware/wiring.png, rendered from the SVG with ``rsvg-convert`` (Debian: librsvg2-bin). The PNG
  carries the SHA-256 of the SVG it was rendered from in a tEXt chunk, so ``--check`` can tell a
  stale picture without rendering anything.

Power and ground pins are not in BOARD (they are not configurable): they are chosen here, next to
the signals they serve, so that no two wires cross where it can be avoided.

Usage:
    python tools/gen_hardware.py           write the three outputs
    python tools/gen_hardware.py --check   exit 1 if any of them differs from what BOARD gives
"""

import hashlib
import os
import runpy
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")
README = os.path.join(HARDWARE, "README.md")
SVG = os.path.join(HARDWARE, "wiring.svg")
PNG = os.path.join(HARDWARE, "wiring.png")
START = "<!-- pinmap:start -->"
END = "<!-- pinmap:end -->"
PNG_KEY = b"tablemate-svg-sha256"

# The Pico's (and Pico W's, Pico 2's) 40 pins, seen from above with the USB end at the top:
# pins 1-20 run down the left edge, 21-40 up the right edge.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12",
    17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND",
    24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN",
    31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
GP_TO_PIN = {int(name[2:]): pin for pin, name in PICO_PINS.items() if name.startswith("GP")}
# GPIOs wired on the Pico's own board, not brought out to a pin (Pico / Pico 2).
INTERNAL_GP = {23: "SMPS mode", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 (ADC3)"}
GND_PINS = [p for p, n in PICO_PINS.items() if n == "GND"]  # AGND is kept for the ADC
PIN_3V3 = 36

WIRE = {  # colour name -> SVG colour
    "red": "#d62728", "black": "#222222", "yellow": "#f2c200", "blue": "#1f5fd6",
    "orange": "#ff7f0e", "green": "#2ca02c", "purple": "#8e44ad", "brown": "#8c564b",
    "white": "#ffffff", "grey": "#9a9a9a", "pink": "#f06aa6", "cyan": "#17becf",
}
BUTTON_COLOURS = {"UP": "orange", "DOWN": "green", "LEFT": "purple", "RIGHT": "brown",
                  "OK": "white", "BACK": "grey"}
SPARE_COLOURS = ("cyan", "pink", "orange", "green", "purple", "brown")
BUZZER_COLOUR = "pink"
KEY_ORDER = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")
THREE = (("PREV", "UP"), ("NEXT", "DOWN"), ("OK", "OK"))  # three-button build: label, line
NOT_PINS = {"i2c", "freq", "addr", "display", "flip", "led"}


class BoardError(Exception):
    pass


def load_board():
    """BOARD from firmware/tablemate/board.py: plain data, run on its own (the tablemate package
    itself needs MicroPython's time functions, which CPython has only under the host fakes)."""
    return runpy.run_path(os.path.join(ROOT, "firmware", "tablemate", "board.py"))["BOARD"]


def gp_pin(gp, what):
    if isinstance(gp, bool) or not isinstance(gp, int) or gp not in GP_TO_PIN:
        raise BoardError("%s: GP%s is not a GPIO on the Pico's pin header" % (what, gp))
    return GP_TO_PIN[gp]


def side_row(pin):
    """('L' or 'R', row 0-19 from the USB end) of a physical pin."""
    return ("L", pin - 1) if pin <= 20 else ("R", 40 - pin)


def nearest_gnd(side, row, below=None):
    """The GND pin on ``side`` nearest to ``row`` (only those below row ``below`` if given)."""
    best = None
    for p in GND_PINS:
        s, r = side_row(p)
        if s != side or (below is not None and r <= below):
            continue
        if best is None or abs(r - row) < abs(side_row(best)[1] - row):
            best = p
    return best


def button_keys(board):
    keys = [k for k in KEY_ORDER if k in board["buttons"]]
    return keys + sorted(k for k in board["buttons"] if k not in KEY_ORDER)


def plan(board):
    """Every connection as a dict: group, signal, gp (or None), pin, colour, note."""
    rows = []

    def add(group, signal, gp, pin, colour, note=""):
        rows.append({"group": group, "signal": signal, "gp": gp, "pin": pin, "colour": colour,
                     "note": note})

    sda, scl = gp_pin(board["sda"], "sda"), gp_pin(board["scl"], "scl")
    add("oled", "SDA", board["sda"], sda, "blue", "I2C%d data" % board["i2c"])
    add("oled", "SCL", board["scl"], scl, "yellow", "I2C%d clock" % board["i2c"])
    add("oled", "VCC", None, PIN_3V3, "red", "3.3 V from the Pico's regulator")
    gnd = nearest_gnd("R", side_row(PIN_3V3)[1], below=side_row(PIN_3V3)[1])
    add("oled", "GND", None, gnd, "black", "")

    keys = button_keys(board)
    spare = list(SPARE_COLOURS)
    used = set()
    for k in keys:
        pin = gp_pin(board["buttons"][k], "buttons[%r]" % k)
        colour = BUTTON_COLOURS.get(k) or spare.pop(0)
        used.add(pin)
        add("button", k, board["buttons"][k], pin, colour, "other leg to the GND rail")
    if keys:
        sides = [side_row(GP_TO_PIN[board["buttons"][k]]) for k in keys]
        side = max(("L", "R"), key=lambda s: sum(1 for t, _ in sides if t == s))
        mean = sum(r for t, r in sides if t == side) / sum(1 for t, _ in sides if t == side)
        add("button", "GND rail", None, nearest_gnd(side, mean), "black",
            "one leg of every button")

    if board.get("buzzer") is not None:
        pin = gp_pin(board["buzzer"], "buzzer")
        s, r = side_row(pin)
        add("buzzer", "piezo +", board["buzzer"], pin, BUZZER_COLOUR,
            "PWM; optional 100-220 ohm series resistor")
        add("buzzer", "piezo -", None, nearest_gnd(s, r), "black", "")

    enc = board.get("encoder")
    if enc:
        for name, label in (("a", "A (CLK)"), ("b", "B (DT)"), ("sw", "SW")):
            if enc.get(name) is not None:
                add("encoder", label, enc[name], gp_pin(enc[name], "encoder.%s" % name),
                    spare.pop(0) if spare else "grey", "")
        add("encoder", "+", None, PIN_3V3, "red", "3V3, never 5 V")
        add("encoder", "GND", None, nearest_gnd("R", 14), "black", "")

    for key in sorted(board):
        value = board[key]
        if key in NOT_PINS or key in ("sda", "scl", "buttons", "buzzer", "encoder"):
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            if value in INTERNAL_GP:
                add("other", key, value, None, "", "inside the Pico: " + INTERNAL_GP[value])
            else:
                add("other", key, value, gp_pin(value, key), "grey", "board.py key %r" % key)
    return rows


# ---------------------------------------------------------------------------------------------
# The pin map table


GROUP_NAMES = {"oled": "OLED", "button": "button", "buzzer": "", "encoder": "encoder",
               "other": ""}


def pin_cell(pin):
    if pin is None:
        return "inside"
    name = PICO_PINS[pin]
    return str(pin) if name.startswith("GP") else "%d (%s)" % (pin, name)


def pinmap_markdown(board, rows):
    lines = [
        START,
        "<!-- Generated by tools/gen_hardware.py from firmware/tablemate/board.py. Edit board.py,",
        "     then run: python tools/gen_hardware.py -->",
        "",
        "I2C%d at %d kHz, display driver `%s` at address 0x%02X. Pico pin numbers count 1-20 down the"
        % (board["i2c"], board["freq"] // 1000, board["display"], board["addr"]),
        "left edge and 21-40 up the right edge, seen from above with the USB socket at the top.",
        "",
        "| signal | GPIO | Pico pin | wire colour | notes |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        group = GROUP_NAMES[r["group"]]
        signal = (group + " " + r["signal"]).strip()
        gp = "GP%d" % r["gp"] if r["gp"] is not None else "-"
        lines.append("| %s | %s | %s | %s | %s |"
                     % (signal, gp, pin_cell(r["pin"]), r["colour"] or "-", r["note"]))
    lines.append("")
    three = [(label, board["buttons"][line]) for label, line in THREE if line in board["buttons"]]
    if len(three) == 3:
        lines.append("- Three-button build: " + ", ".join(
            "%s on GP%d (pin %d)" % (label, gp, GP_TO_PIN[gp]) for label, gp in three) + ".")
    lines += [
        "- Battery sense (optional) needs no wire: VSYS reaches GP29 = ADC3 through the Pico's own",
        "  VSYS/3 divider.",
        "- Any GND pin (%s) serves any ground above; these keep the wires short and uncrossed."
        % ", ".join(str(p) for p in GND_PINS),
        END,
    ]
    return "\n".join(lines)


def readme_text(current, board, rows):
    if START not in current or END not in current:
        raise BoardError("hardware/README.md lacks the %s ... %s markers" % (START, END))
    head, rest = current.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + pinmap_markdown(board, rows) + tail


# ---------------------------------------------------------------------------------------------
# The wiring diagram

W, H = 1140, 930
P = 30  # pin pitch in the drawing
Y0 = 200  # row 0
PX = {"L": 470, "R": 690}  # pad x on each edge of the Pico
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def ry(row):
    return Y0 + row * P


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Svg:
    def __init__(self):
        self.out = []
        self.wires = []  # (colour, points)

    def add(self, s):
        self.out.append(s)

    def text(self, x, y, s, size=13, anchor="start", weight="normal", fill="#222", cls=None,
             rotate=False, family=FONT):
        extra = ' class="%s"' % cls if cls else ""
        if rotate:
            extra += ' transform="rotate(-90 %g %g)"' % (x, y)
        self.add('<text x="%g" y="%g" font-family="%s" font-size="%g" text-anchor="%s" '
                 'font-weight="%s" fill="%s"%s>%s</text>'
                 % (x, y, family, size, anchor, weight, fill, extra, esc(s)))

    def wire(self, colour, points):
        self.wires.append((colour, points))

    def wire_paths(self):
        """Orthogonal wires, each outlined; a horizontal run hops over another wire's vertical."""
        paths = []
        verticals = []
        for n, (_, pts) in enumerate(self.wires):
            for a, b in zip(pts, pts[1:]):
                if a[0] == b[0]:
                    verticals.append((n, a[0], min(a[1], b[1]), max(a[1], b[1])))
        for n, (colour, pts) in enumerate(self.wires):
            d = "M%g %g" % pts[0]
            for a, b in zip(pts, pts[1:]):
                if a[1] == b[1] and a[0] != b[0]:
                    y, step = a[1], (1 if b[0] > a[0] else -1)
                    lo, hi = min(a[0], b[0]), max(a[0], b[0])
                    hops = sorted((x for m, x, y1, y2 in verticals
                                   if m != n and lo + 8 < x < hi - 8 and y1 < y < y2),
                                  reverse=step < 0)
                    for x in hops:
                        d += " L%g %g A7 7 0 0 %d %g %g" % (x - 7 * step, y, 1 if step > 0 else 0,
                                                           x + 7 * step, y)
                d += " L%g %g" % b
            paths.append((" A" in d, '<path d="%s" fill="none" stroke="#333" stroke-width="6" '
                          'stroke-linejoin="round" stroke-linecap="round"/>' % d))
            paths.append((" A" in d, '<path d="%s" fill="none" stroke="%s" stroke-width="3.6" '
                          'stroke-linejoin="round" stroke-linecap="round"/>' % (d, WIRE[colour])))
        # a wire that hops goes over the one it hops
        return [p for hop, p in paths if not hop] + [p for hop, p in paths if hop]


def draw_pico(svg, used):
    x0, x1 = PX["L"], PX["R"]
    top, bottom = ry(0) - 42, ry(19) + 34
    svg.add('<rect x="%g" y="%g" width="%g" height="%g" rx="8" fill="#1d7a46" stroke="#0f4d2b" '
            'stroke-width="2"/>' % (x0, top, x1 - x0, bottom - top))
    cx = (x0 + x1) / 2
    svg.add('<rect x="%g" y="%g" width="56" height="24" rx="3" fill="#c9ccd1" stroke="#666"/>'
            % (cx - 28, top - 12))
    svg.text(cx, top + 26, "USB", size=11, anchor="middle", fill="#e8f5ec")
    svg.text(cx + 5, ry(10), "Raspberry Pi Pico (top view)", size=15, anchor="middle",
             weight="bold", fill="#e8f5ec", rotate=True)
    for pin, name in sorted(PICO_PINS.items()):
        side, row = side_row(pin)
        x, y = PX[side], ry(row)
        on = pin in used
        svg.add('<circle cx="%g" cy="%g" r="6" fill="%s" stroke="#8a6d1c" stroke-width="1.5"/>'
                % (x, y, "#e8c15a" if on else "#b9a46a"))
        inward = 1 if side == "L" else -1
        anchor = "start" if side == "L" else "end"
        colour = "#ffffff" if on else "#9fd3b3"
        svg.text(x + 11 * inward, y + 4, str(pin), size=11, anchor=anchor, fill=colour)
        svg.text(x + 33 * inward, y + 4.5, name, size=12, anchor=anchor, fill=colour,
                 weight="bold" if on else "normal", cls="name used" if on else "name")


def switch(svg, xa, xb, y, label):
    """A push-button symbol between terminals at xa < xb on row y."""
    svg.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#222" stroke-width="2.4"/>'
            % (xa, y, xb - 3, y - 11))
    m = (xa + xb) / 2
    svg.add('<path d="M%g %g V%g M%g %g H%g" stroke="#222" stroke-width="2.4" fill="none"/>'
            % (m, y - 6, y - 15, m - 8, y - 15, m + 8))
    for x in (xa, xb):
        svg.add('<circle cx="%g" cy="%g" r="3.6" fill="#fff" stroke="#222" stroke-width="2"/>'
                % (x, y))


def draw_buttons(svg, rows):
    buttons = [r for r in rows if r["group"] == "button" and r["gp"] is not None]
    rail = [r for r in rows if r["group"] == "button" and r["gp"] is None]
    if not buttons:
        return
    side = side_row(rail[0]["pin"])[0]
    out = -1 if side == "L" else 1
    px = PX[side]
    rail_x, sw_near, sw_far = px + 290 * out, px + 140 * out, px + 190 * out
    label_x = px + 70 * out
    ys = []
    for r in buttons:
        s, row = side_row(r["pin"])
        y = ry(row)
        ys.append(y)
        svg.wire(r["colour"], [(px, y), (sw_near, y)])
        svg.wire("black", [(sw_far, y), (rail_x, y)])
        svg.text(label_x, y - 6, r["signal"], size=13, anchor="middle", weight="bold")
        switch(svg, min(sw_near, sw_far), max(sw_near, sw_far), y, r["signal"])
    gy = ry(side_row(rail[0]["pin"])[1])
    svg.wire("black", [(px, gy), (rail_x, gy)])
    ys.append(gy)
    svg.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#222" stroke-width="7" '
            'stroke-linecap="round"/>' % (rail_x, min(ys), rail_x, max(ys)))
    svg.text(rail_x + 16 * out, (min(ys) + max(ys)) / 2, "GND rail", size=13, anchor="middle",
             weight="bold", rotate=True)
    svg.text((rail_x + sw_far) / 2, min(ys) - 34, "6x6 mm push buttons", size=13,
             anchor="middle", fill="#444")
    svg.text((rail_x + sw_far) / 2, min(ys) - 18, "(GPIO to GND, no resistors)", size=12,
             anchor="middle", fill="#666")


def draw_oled(svg, rows, board):
    pins = {r["signal"]: r for r in rows if r["group"] == "oled"}
    order = ["SDA", "SCL", "VCC", "GND"]  # the header top to bottom, module turned on its side
    vcc_row = side_row(pins["VCC"]["pin"])[1]
    head_rows = [vcc_row - 2 + i for i in range(4)]
    ox = 860
    top, bottom = ry(head_rows[0]) - 48, ry(head_rows[-1]) + 48
    svg.add('<rect x="%g" y="%g" width="190" height="%g" rx="6" fill="#1c4f9c" '
            'stroke="#0d2f63" stroke-width="2"/>' % (ox, top, bottom - top))
    svg.add('<rect x="%g" y="%g" width="112" height="66" rx="3" fill="#0b0f17" stroke="#445"/>'
            % (ox + 66, (top + bottom) / 2 - 33))
    svg.text(ox + 122, (top + bottom) / 2 - 4, "128 x 64", size=12, anchor="middle",
             fill="#7fd0ff")
    svg.text(ox + 122, (top + bottom) / 2 + 13, board["display"].upper(), size=12,
             anchor="middle", fill="#7fd0ff")
    svg.text(ox, top - 28, '0.96" OLED module, I2C 0x%02X' % board["addr"], size=14,
             weight="bold")
    svg.text(ox, top - 11, "pull-ups are on the module", size=12, fill="#555")
    svg.text(ox, bottom + 20, "Most modules read GND VCC SCL SDA;", size=12, fill="#555")
    svg.text(ox, bottom + 36, "some swap GND and VCC: follow the labels.", size=12, fill="#555")
    lanes_left = {"SDA": (780, Y0 - 108, 420), "SCL": (760, Y0 - 88, 440)}
    lanes_right = {"SDA": 780, "SCL": 760, "VCC": 740, "GND": 740}
    for name, hr in zip(order, head_rows):
        r = pins[name]
        y = ry(hr)
        svg.add('<rect x="%g" y="%g" width="12" height="12" fill="#e8c15a" stroke="#8a6d1c"/>'
                % (ox - 6, y - 6))
        svg.text(ox + 14, y + 4.5, name, size=12, weight="bold", fill="#ffffff")
        side, row = side_row(r["pin"])
        py = ry(row)
        if side == "L":
            lx, ty, dx = lanes_left[name]
            pts = [(ox, y), (lx, y), (lx, ty), (dx, ty), (dx, py), (PX["L"], py)]
        elif py == y:
            pts = [(ox, y), (PX["R"], y)]
        else:
            lx = lanes_right[name]
            pts = [(ox, y), (lx, y), (lx, py), (PX["R"], py)]
        svg.wire(r["colour"], pts)


def draw_buzzer(svg, rows):
    pos = [r for r in rows if r["signal"] == "piezo +"]
    neg = [r for r in rows if r["signal"] == "piezo -"]
    if not pos:
        return
    side, row = side_row(pos[0]["pin"])
    out = 1 if side == "R" else -1
    px = PX[side]
    y1, y2 = ry(row), ry(side_row(neg[0]["pin"])[1])
    tx = px + 200 * out
    # optional series resistor in the signal wire
    rx0, rx1 = px + 70 * out, px + 120 * out
    svg.wire(pos[0]["colour"], [(px, y1), (rx0, y1)])
    svg.wire(pos[0]["colour"], [(rx1, y1), (tx, y1)])
    svg.wire("black", [(px, y2), (tx, y2)])
    svg.add('<rect x="%g" y="%g" width="%g" height="14" fill="#f4e3c1" stroke="#222" '
            'stroke-width="2" stroke-dasharray="4 3"/>' % (min(rx0, rx1), y1 - 7, abs(rx1 - rx0)))
    svg.text((rx0 + rx1) / 2, y1 + 26, "100-220 \u03a9 (optional)", size=12, anchor="middle",
             fill="#444")
    cx, cy = tx + 44 * out, (y1 + y2) / 2
    for y in (y1, y2):
        edge = cy + (26 if y > cy else -26)
        svg.add('<path d="M%g %g H%g V%g" stroke="#555" stroke-width="2.4" fill="none"/>'
                % (tx, y, cx, edge))
        svg.add('<circle cx="%g" cy="%g" r="3.6" fill="#fff" stroke="#222" stroke-width="2"/>'
                % (tx, y))
    svg.add('<circle cx="%g" cy="%g" r="26" fill="#2a2a2a" stroke="#111" stroke-width="2"/>'
            % (cx, cy))
    svg.add('<circle cx="%g" cy="%g" r="8" fill="#555"/>' % (cx, cy))
    svg.text(tx - 14 * out, y1 - 7, "+", size=15, anchor="middle", weight="bold")
    svg.text(tx - 14 * out, y2 - 7, "\u2212", size=15, anchor="middle", weight="bold")
    lx = cx + 42 * out
    anchor = "start" if out > 0 else "end"
    svg.text(lx, cy - 4, "passive piezo", size=14, anchor=anchor, weight="bold")
    svg.text(lx, cy + 13, "(not an active buzzer)", size=12, anchor=anchor, fill="#555")


def legend(svg, rows, board):
    y = ry(19) + 92
    svg.text(40, y, "Wire colours", size=14, weight="bold")
    entries, seen = [], set()
    for r in rows:
        if not r["colour"] or r["pin"] is None or r["group"] in ("encoder", "other"):
            continue  # drawn as a note, not as wires
        name = {"red": "3V3", "black": "GND"}.get(r["colour"], r["signal"].rstrip(" +"))
        if r["colour"] in ("red", "black"):
            key = r["colour"]
        else:
            key = r["colour"] + name
        if key in seen:
            continue
        seen.add(key)
        entries.append((r["colour"], name))
    x = 150
    for colour, name in entries:
        width = 52 + 9.5 * len(name)
        if x + width > W - 30:
            x, y = 150, y + 24
        svg.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#333" stroke-width="6" '
                'stroke-linecap="round"/>' % (x, y - 5, x + 24, y - 5))
        svg.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3.6" '
                'stroke-linecap="round"/>' % (x, y - 5, x + 24, y - 5, WIRE[colour]))
        svg.text(x + 32, y, name, size=13)
        x += width
    notes = [
        "Pico (or Pico W, Pico 2) seen from above, USB socket at the top; pads with white "
        "labels are used. Buttons use the Pico's internal pull-ups.",
        "Keep the I2C wires short (under 15 cm) for 400 kHz, shorter still for 1 MHz. "
        "Optional battery: see hardware/README.md.",
    ]
    enc = [r for r in rows if r["group"] == "encoder" and r["gp"] is not None]
    if enc:
        notes.append("Rotary encoder (KY-040): " + ", ".join(
            "%s to GP%d (pin %d)" % (r["signal"], r["gp"], r["pin"]) for r in enc)
            + ", + to 3V3 (pin 36), GND to GND.")
    for i, line in enumerate(notes):
        svg.text(40, y + 30 + 18 * i, line, size=12, fill="#444")
    return y + 30 + 18 * len(notes)


def wiring_svg(board, rows):
    svg = Svg()
    used = {r["pin"] for r in rows if r["pin"] is not None}
    svg.text(40, 44, "Tablemate wiring", size=24, weight="bold")
    svg.text(40, 68, "Generated by tools/gen_hardware.py from firmware/tablemate/board.py",
             size=13, fill="#555")
    draw_pico(svg, used)
    draw_oled(svg, rows, board)
    draw_buttons(svg, rows)
    draw_buzzer(svg, rows)
    height = legend(svg, rows, board) + 24
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (W, height, W, height),
           '<rect width="100%" height="100%" fill="#ffffff"/>']
    out += svg.wire_paths()  # under the boards, symbols and labels: pads cover the wire ends
    out += svg.out
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# PNG with the SVG's hash


def png_svg_hash(path):
    """The SVG hash recorded in a PNG's tEXt chunk, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"tEXt" and body.startswith(PNG_KEY + b"\0"):
            return body[len(PNG_KEY) + 1:].decode("ascii")
        pos += 12 + length
    return None


def with_text_chunk(png, key, value):
    """``png`` bytes with a tEXt chunk key=value right after IHDR."""
    body = key + b"\0" + value.encode("ascii")
    chunk = struct.pack(">I4s", len(body), b"tEXt") + body
    chunk += struct.pack(">I", zlib.crc32(b"tEXt" + body) & 0xFFFFFFFF)
    ihdr_end = 8 + 12 + struct.unpack(">I", png[8:12])[0]
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def render_png(svg_text):
    tool = shutil.which("rsvg-convert")
    if not tool:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "w.svg"), os.path.join(tmp, "w.png")
        with open(src, "w", encoding="utf-8") as f:
            f.write(svg_text)
        subprocess.run([tool, "-o", dst, src], check=True)
        with open(dst, "rb") as f:
            png = f.read()
    return with_text_chunk(png, PNG_KEY, sha(svg_text))


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------


def outputs(board):
    rows = plan(board)
    with open(README, encoding="utf-8") as f:
        current = f.read()
    return current, readme_text(current, board, rows), wiring_svg(board, rows)


def main(argv):
    check = "--check" in argv
    board = load_board()
    try:
        current_readme, readme, svg = outputs(board)
    except BoardError as e:
        print("gen_hardware: %s" % e, file=sys.stderr)
        return 1
    if check:
        stale = []
        if current_readme != readme:
            stale.append("hardware/README.md (pin map section)")
        try:
            with open(SVG, encoding="utf-8") as f:
                if f.read() != svg:
                    stale.append("hardware/wiring.svg")
        except OSError:
            stale.append("hardware/wiring.svg (missing)")
        if png_svg_hash(PNG) != sha(svg):
            stale.append("hardware/wiring.png")
        if stale:
            print("stale, run python tools/gen_hardware.py: " + ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    with open(README, "w", encoding="utf-8") as f:
        f.write(readme)
    with open(SVG, "w", encoding="utf-8") as f:
        f.write(svg)
    png = render_png(svg)
    if png is None:
        print("gen_hardware: rsvg-convert not found (Debian: apt-get install librsvg2-bin); "
              "hardware/wiring.png not updated", file=sys.stderr)
        return 1 if png_svg_hash(PNG) != sha(svg) else 0
    with open(PNG, "wb") as f:
        f.write(png)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
