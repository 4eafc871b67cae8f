// The OLED: a decoder of the SSD1306 (or SH1106) I2C byte stream, and the canvas it lights.
//
// The firmware's driver (firmware/tablemate/hw/ssd1306.py) sends only what changed, so the page
// must not read the driver's frame buffer: this decoder takes every write transaction the
// driver sends, parses control bytes, commands and arguments as the controller does, writes
// data into its own display RAM at the address pointer and moves that pointer by the
// addressing mode and window. The picture is that RAM through the panel's remap, scan, offset,
// contrast and on/off state. It is the JavaScript twin of host/tablemate_host/virtual_ssd1306.py
// (the same panel model; tests/web checks the canvas against that decoder's frames).

const HORIZONTAL = 0, VERTICAL = 1, PAGE = 2;
const SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,
  0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1};
const SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1};

export class SSD1306 {
  constructor(sh1106 = false) {
    this.sh1106 = sh1106;
    this.ramWidth = sh1106 ? 132 : 128;
    this.visible0 = sh1106 ? 2 : 0;
    this.ram = new Uint8Array(this.ramWidth * 8);
    this.bytes = 0; // bytes received, all transactions
    this.changed = true; // something that shows may have changed since the last render
    this.powerOnReset();
  }

  powerOnReset() {
    this.displayOn = false;
    this.contrast = this.sh1106 ? 0x80 : 0x7F;
    this.entireOn = false;
    this.inverted = false;
    this.mode = PAGE;
    this.colStart = 0; this.colEnd = 127;
    this.pageStart = 0; this.pageEnd = 7;
    this.col = 0; this.page = 0; this.pageModeCol = 0;
    this.startLine = 0;
    this.segRemap = false;
    this.comReverse = false;
    this.mux = 64;
    this.offset = 0;
    this.comPins = 0x12;
    this.chargePump = false;
    this.dcdc = true;
    this.cmd = 0; this.args = []; this.need = 0;
  }

  // One I2C write transaction (without the address byte), as bytes.
  write(data) {
    this.bytes += data.length;
    this.changed = true;
    let i = 0;
    const n = data.length;
    while (i < n) {
      const control = data[i++];
      const isData = (control & 0x40) !== 0;
      if (control & 0x80) { // Co=1: one byte, then another control byte
        if (i < n) this.byte(data[i++], isData);
      } else { // Co=0: the rest is one stream
        for (; i < n; i++) this.byte(data[i], isData);
      }
    }
  }

  // The same, from the hex text the VM's I2C sends.
  writeHex(hex) {
    const data = new Uint8Array(hex.length >> 1);
    for (let i = 0; i < data.length; i++) data[i] = parseInt(hex.substr(2 * i, 2), 16);
    this.write(data);
  }

  byte(b, isData) {
    if (isData) this.data(b);
    else this.commandByte(b);
  }

  data(b) {
    if (this.col < this.ramWidth) { // the SSD1306 remaps segments as it writes (its RAM is in segment order)
      const seg = this.segRemap && !this.sh1106 ? 127 - this.col : this.col;
      this.ram[this.page * this.ramWidth + seg] = b;
    }
    if (this.sh1106) {
      this.col = this.col >= this.ramWidth - 1 ? 0 : this.col + 1;
    } else if (this.mode === HORIZONTAL) {
      if (this.col >= this.colEnd) {
        this.col = this.colStart;
        this.page = this.page >= this.pageEnd ? this.pageStart : this.page + 1;
      } else this.col++;
    } else if (this.mode === VERTICAL) {
      if (this.page >= this.pageEnd) {
        this.page = this.pageStart;
        this.col = this.col >= this.colEnd ? this.colStart : this.col + 1;
      } else this.page++;
    } else {
      this.col = this.col >= 127 ? this.pageModeCol : this.col + 1;
    }
  }

  commandByte(b) {
    if (this.need) {
      this.args.push(b);
      if (--this.need === 0) this.execute(this.cmd, this.args);
      return;
    }
    const need = (this.sh1106 ? SH1106_ARGS : SSD1306_ARGS)[b] || 0;
    if (need) { this.cmd = b; this.args = []; this.need = need; }
    else this.execute(b, []);
  }

  execute(c, a) {
    const sh = this.sh1106;
    if (c <= 0x0F) {
      this.pageModeCol = (this.pageModeCol & 0xF0) | c;
      if (sh || this.mode === PAGE) this.col = (this.col & 0xF0) | c;
    } else if (c <= 0x1F) {
      this.pageModeCol = (this.pageModeCol & 0x0F) | ((c & 0x0F) << 4);
      if (sh || this.mode === PAGE) this.col = (this.col & 0x0F) | ((c & 0x0F) << 4);
    } else if (sh && c >= 0x30 && c <= 0x33) {
      // pump voltage
    } else if (c >= 0x40 && c <= 0x7F) {
      this.startLine = c & 0x3F;
    } else if (c >= 0xB0 && c <= 0xB7) {
      if (sh || this.mode === PAGE) this.page = c & 7;
    } else if (c === 0x81) this.contrast = a[0];
    else if (c === 0xA0 || c === 0xA1) this.segRemap = c === 0xA1;
    else if (c === 0xA4 || c === 0xA5) this.entireOn = c === 0xA5;
    else if (c === 0xA6 || c === 0xA7) this.inverted = c === 0xA7;
    else if (c === 0xA8) { if ((a[0] & 0x3F) >= 15) this.mux = (a[0] & 0x3F) + 1; }
    else if (c === 0xAE || c === 0xAF) this.displayOn = c === 0xAF;
    else if (c === 0xC0 || c === 0xC8) this.comReverse = c === 0xC8;
    else if (c === 0xD3) this.offset = a[0] & 0x3F;
    else if (c === 0xDA) this.comPins = a[0];
    else if (sh && c === 0xAD) this.dcdc = (a[0] & 1) === 1;
    else if (sh) { /* clock, precharge, vcomh, read-modify-write: nothing shows */ }
    else if (c === 0x20) { if ((a[0] & 3) !== 3) this.mode = a[0] & 3; }
    else if (c === 0x21) {
      this.colStart = a[0] & 0x7F; this.colEnd = a[1] & 0x7F;
      if (this.mode !== PAGE) this.col = this.colStart;
    } else if (c === 0x22) {
      this.pageStart = a[0] & 7; this.pageEnd = a[1] & 7;
      if (this.mode !== PAGE) this.page = this.pageStart;
    } else if (c === 0x8D) this.chargePump = (a[0] & 0x04) === 0x04;
    // scrolling, clock, precharge, VCOMH, NOP: nothing this panel model shows
  }

  get lit() {
    return this.displayOn && (this.sh1106 ? this.dcdc : this.chargePump);
  }

  rowSource(r) {
    const p = 63 - r; // the glass is wired bottom-up; 0xC8 makes it upright
    const alt = this.comPins & 0x10, lr = this.comPins & 0x20;
    let com;
    if (alt) com = lr ? (p + 32) % 64 : p;
    else com = (p >> 1) + (((p & 1) !== 0) !== (lr !== 0) ? 32 : 0);
    if (com >= this.mux) return -1;
    const k = this.comReverse ? this.mux - 1 - com : com;
    return (k + this.startLine + this.offset) % 64;
  }

  colSource(x) {
    const seg = 127 + this.visible0 - x;
    return this.segRemap && this.sh1106 ? this.ramWidth - 1 - seg : seg; // SH1106: remap on the output
  }

  // The visible image: 64 rows x 128 columns of 0/1, row-major.
  pixels(out = new Uint8Array(128 * 64)) {
    if (!this.lit) { out.fill(0); return out; }
    if (this.entireOn) { out.fill(1); return out; }
    const inv = this.inverted ? 1 : 0;
    const cols = new Int32Array(128);
    for (let x = 0; x < 128; x++) cols[x] = this.colSource(x);
    for (let r = 0; r < 64; r++) {
      const src = this.rowSource(r);
      if (src < 0) { out.fill(inv, r * 128, r * 128 + 128); continue; }
      const base = (src >> 3) * this.ramWidth, bit = src & 7;
      for (let x = 0; x < 128; x++) out[r * 128 + x] = ((this.ram[base + cols[x]] >> bit) & 1) ^ inv;
    }
    return out;
  }
}

// Lit and dark pixel colours: the blue-white of the common modules on near-black glass.
const ON = [0x9F, 0xD8, 0xFF], OFF = [0x0B, 0x0D, 0x12];

// Draws the panel on a 128x64 canvas (scaled up by CSS with image-rendering: pixelated).
export class Screen {
  constructor(canvas, panel) {
    this.canvas = canvas;
    this.panel = panel;
    this.ctx = canvas.getContext("2d", { alpha: false });
    this.image = this.ctx.createImageData(128, 64);
    this.px = new Uint8Array(128 * 64);
    this.frames = 0;
    this.drawnAt = 0; // performance.now() of the last draw
  }

  // Brightness follows the contrast register, as the glass does (dimmed is still readable).
  level() {
    return 0.4 + 0.6 * Math.pow(this.panel.contrast / 255, 0.25);
  }

  render() {
    if (!this.panel.changed) return false;
    this.panel.changed = false;
    const px = this.panel.pixels(this.px);
    const d = this.image.data;
    const k = this.level();
    const on = ON.map((c, i) => Math.round(OFF[i] + (c - OFF[i]) * k));
    for (let i = 0, j = 0; i < px.length; i++, j += 4) {
      const c = px[i] ? on : OFF;
      d[j] = c[0]; d[j + 1] = c[1]; d[j + 2] = c[2]; d[j + 3] = 255;
    }
    this.ctx.putImageData(this.image, 0, 0);
    this.frames++;
    this.drawnAt = performance.now();
    return true;
  }

  // "on", "dim" or "off", as the simulator's status line says.
  state() {
    if (!this.panel.lit) return "off";
    return this.panel.contrast < 8 ? "dim" : "on";
  }
}
