// drive.mjs - scriptable acceptance harness for MicroPython gadget apps on an
// emulated Raspberry Pi Pico (rp2040js 1.4.1 + real MicroPython rp2 firmware).
//
//   node emu/drive.mjs --app DIR --script steps.json [--out DIR] [--fw firmware.uf2]
//        [--sda 4 --scl 5] [--i2c-timing 0|1] [--i2c-addr 0x3C] [--display ssd1306|sh1106]
//        [--flash-image flash.bin] [--fs littlefs.img] [--buttons 12,13] [--ext-pullup 12]
//        [--flash-timing typ|max|0] [--torn half|old] [--echo]
//
// Everything runs on simulated time (no timers, no host clock), so identical inputs
// give identical cycle counts.  See HARNESS.txt ("drive.mjs") for the step language.
import fs from 'fs';
import path from 'path';
import crypto from 'crypto';
import { execFileSync } from 'child_process';
import { Simulator, USBCDC } from 'rp2040js';
import { decodeBlock } from 'uf2';
import { bootromB1 } from './bootrom.mjs';
import { SSD1306, BitBangI2CBus } from './ssd1306.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const RIG = path.resolve(here, '..');
const PY = path.join(RIG, 'venv/bin/python');

const FLASH_BASE = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024;    // Pico: W25Q16JV, 2 MiB
const FS_OFFSET = 0xa0000;             // MICROPY_HW_FLASH_STORAGE_BASE for RPI_PICO
const FS_BLOCK = 4096, FS_BLOCKS = 352;
const NS_PER_CYCLE = 8;                // rp2040js: 125 MHz core clock
const I2C_FUNC = 3;                    // GPIO function 3 = I2C
const MS = 1e6;

// W25Q16JV datasheet program/erase times (ms): page program, 4K sector, 32K block, 64K block
const FLASH_TIMING = {
  typ: { page: 0.4, sector: 45, block32: 120, block64: 150 },
  max: { page: 3, sector: 400, block32: 1600, block64: 2000 },
  0: { page: 0, sector: 0, block32: 0, block64: 0 },
};

// ---------------------------------------------------------------- CLI
function parseArgs(argv) {
  const o = {}, flags = new Set(['echo', 'help']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error('unexpected argument ' + a);
    const k = a.slice(2);
    if (flags.has(k)) o[k] = true; else { if (i + 1 >= argv.length) throw new Error(a + ' needs a value'); o[k] = argv[++i]; }
  }
  return o;
}
const USAGE = `usage: node emu/drive.mjs (--app DIR | --flash-image FILE | --fs IMG) --script FILE.json [--out DIR]
  [--fw FILE.uf2|.bin] [--sda 4] [--scl 5] [--i2c-timing 0|1] [--i2c-addr 0x3C] [--display ssd1306|sh1106]
  [--buttons P,P] [--ext-pullup P,P] [--flash-timing typ|max|0] [--torn half|old] [--echo]`;
let A;
try { A = parseArgs(process.argv.slice(2)); } catch (e) { console.error(e.message + '\n' + USAGE); process.exit(2); }
if (A.help || !A.script || (!A.app && !A['flash-image'] && !A.fs)) { console.error(USAGE); process.exit(2); }
if (A.app && (A['flash-image'] || A.fs)) { console.error('use only one of --app, --fs, --flash-image'); process.exit(2); }
const pins = (s) => (s ? String(s).split(',').filter((x) => x !== '').map(Number) : []);
const cfg = {
  app: A.app ? path.resolve(A.app) : null,
  fw: path.resolve(A.fw || path.join(RIG, 'micropython/ports/rp2/build-RPI_PICO/firmware.uf2')),
  fwExplicit: !!A.fw,
  out: path.resolve(A.out || path.join(RIG, 'out/drive')),
  script: path.resolve(A.script),
  sda: +(A.sda ?? 4), scl: +(A.scl ?? 5),
  i2cTiming: String(A['i2c-timing'] ?? '1') !== '0',
  i2cAddr: Number(A['i2c-addr'] ?? '0x3C'),
  display: A.display || 'ssd1306',
  flashImage: A['flash-image'] ? path.resolve(A['flash-image']) : null,
  fsImage: A.fs ? path.resolve(A.fs) : null,
  buttons: pins(A.buttons), extPullup: pins(A['ext-pullup']),
  flashTiming: String(A['flash-timing'] ?? 'typ'),
  torn: A.torn || 'half',
  echo: !!A.echo,
};
if (!FLASH_TIMING[cfg.flashTiming]) { console.error('--flash-timing must be typ, max or 0'); process.exit(2); }
if (!['half', 'old', 'garbage'].includes(cfg.torn)) { console.error('--torn must be half, old or garbage'); process.exit(2); }
if (!['ssd1306', 'sh1106'].includes(cfg.display)) { console.error('--display must be ssd1306 or sh1106'); process.exit(2); }
if (!Number.isInteger(cfg.i2cAddr) || cfg.i2cAddr < 0 || cfg.i2cAddr > 0x7f) { console.error('bad --i2c-addr'); process.exit(2); }
const FT = FLASH_TIMING[cfg.flashTiming];
fs.mkdirSync(cfg.out, { recursive: true });

// ---------------------------------------------------------------- script
const STEP_KINDS = ['wait_ms', 'wait_frame_idle_ms', 'press', 'press_many', 'long_press', 'set_pin', 'capture', 'type',
  'expect_serial', 'heap', 'soft_reset', 'power_cut_at_ms', 'power_cut_in_ms', 'power_cut_after_flash_ops',
  'power_on', 'power_cycle'];
const STEP_OPTS = new Set(['label', 'hold_ms', 'idle_ms', 'timeout_ms', 'capture', 'regex', 'new_frame', 'value',
  'kind', 'during', 'expect_redraw', 'wait_ms']);
let script = JSON.parse(fs.readFileSync(cfg.script, 'utf8'));
if (!Array.isArray(script)) script = script.steps;
if (!Array.isArray(script)) { console.error('script must be a JSON list of steps'); process.exit(2); }
const DUAL = new Set(['capture', 'wait_ms']);   // step kinds that are also options of other steps
script.forEach((s, i) => {
  const kinds = Object.keys(s).filter((k) => STEP_KINDS.includes(k));
  const primary = kinds.filter((k) => !DUAL.has(k));
  const kind = primary.length === 1 ? primary[0] : primary.length === 0 && kinds.length === 1 ? kinds[0] : null;
  const bad = Object.keys(s).filter((k) => k !== kind && !STEP_OPTS.has(k));
  if (!kind || bad.length) {
    console.error(`step ${i}: ${JSON.stringify(s)}: ${!kind ? 'no (single) step kind among ' + STEP_KINDS.join(',') : 'unknown keys ' + bad.join(',')}`);
    process.exit(2);
  }
  s.__kind = kind;
});
// every GPIO the script touches is driven (released level) from power-on
const buttonPins = new Set(cfg.buttons);
for (const s of script) {
  if (s.press !== undefined) buttonPins.add(+s.press);
  if (s.long_press !== undefined) buttonPins.add(+s.long_press);
  if (s.set_pin !== undefined) buttonPins.add(+s.set_pin);
  if (s.press_many) s.press_many.forEach((p) => buttonPins.add(+p));
}
for (const p of buttonPins) if (!(p >= 0 && p <= 29) || p === cfg.sda || p === cfg.scl) { console.error('bad button pin ' + p); process.exit(2); }
const extPullup = new Set(cfg.extPullup);

// ---------------------------------------------------------------- initial flash
function initialFlash() {
  const img = new Uint8Array(FLASH_SIZE).fill(0xff);
  const loadFw = () => {
    const data = fs.readFileSync(cfg.fw);
    if (cfg.fw.endsWith('.uf2')) {
      for (let off = 0; off + 512 <= data.length; off += 512) {
        const { flashAddress, payload } = decodeBlock(data.subarray(off, off + 512));
        img.set(payload, flashAddress - FLASH_BASE);
      }
    } else img.set(data, 0);
  };
  if (cfg.flashImage) {
    const d = fs.readFileSync(cfg.flashImage);
    if (d.length === FLASH_SIZE) { img.set(d, 0); if (cfg.fwExplicit) loadFw(); return { img, source: 'flash-image ' + cfg.flashImage }; }
    if (d.length === FS_BLOCK * FS_BLOCKS) { loadFw(); img.set(d, FS_OFFSET); return { img, source: 'fs-region image ' + cfg.flashImage }; }
    throw new Error(`--flash-image must be ${FLASH_SIZE} (full flash) or ${FS_BLOCK * FS_BLOCKS} (fs region) bytes`);
  }
  loadFw();
  let fsImg = cfg.fsImage;
  if (cfg.app) {
    fsImg = path.join(cfg.out, 'littlefs.img');
    const log = execFileSync(PY, [path.join(RIG, 'tools/mkfs.py'), cfg.app, fsImg], { encoding: 'utf8' });
    fs.writeFileSync(path.join(cfg.out, 'mkfs.log'), log);
  }
  img.set(fs.readFileSync(fsImg), FS_OFFSET);
  return { img, source: cfg.app ? 'app ' + cfg.app : 'fs ' + fsImg };
}

// bootrom function table: flash_range_erase ('RE') / flash_range_program ('RP')
function romFunc(code) {
  const b = new Uint8Array(bootromB1.buffer, bootromB1.byteOffset, bootromB1.byteLength);
  const u16 = (a) => b[a] | (b[a + 1] << 8);
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let p = u16(0x14); u16(p); p += 4) if (u16(p) === want) return u16(p + 2) & ~1;
  throw new Error('bootrom function ' + code + ' not found');
}
const ROM_RE = romFunc('RE'), ROM_RP = romFunc('RP');

// emulator diagnostics (unimplemented registers etc.) are recorded, not thrown
const emuWarnings = new Map();
const noteWarning = (msg) => { emuWarnings.set(msg, (emuWarnings.get(msg) || 0) + 1); if (cfg.echo) process.stderr.write('[rp2040js] ' + msg + '\n'); };
const emuLogger = { debug() {}, info() {}, warn: (c, msg) => noteWarning(`[${c}] ${msg}`), error: (c, msg) => noteWarning(`[${c}] ERROR ${msg}`) };
console.warn = (...a) => noteWarning(a.join(' '));   // rp2040js' SIO reports unknown registers via console.warn

// ---------------------------------------------------------------- machine (one power-on)
const serialLog = { text: '', write(s) { this.text += s; } };   // written to out/serial.log at the end
let uartText = '';

class Machine {
  constructor(flashImg, bootNo, source) {
    this.bootNo = bootNo; this.source = source;
    const sim = new Simulator();
    const mcu = (this.mcu = sim.rp2040);
    this.core = mcu.core; this.clock = sim.clock;
    mcu.loadBootrom(bootromB1);
    mcu.logger = emuLogger;
    mcu.flash.set(flashImg.subarray(0, FLASH_SIZE), 0);
    this.info = { boot: bootNo, source, usbConnectedMs: null, firstFrameMs: null };
    // USB CDC (REPL / print output)
    this.serial = ''; this.expectPos = 0; this.txQueue = [];
    const cdc = (this.cdc = new USBCDC(mcu.usbCtrl));
    cdc.onDeviceConnected = () => { this.info.usbConnectedMs = this.ms(); };
    cdc.onSerialData = (buf) => {
      const s = Buffer.from(buf).toString('latin1');
      this.serial += s; serialLog.write(s); if (cfg.echo) process.stdout.write(s);
    };
    for (const u of mcu.uart) u.onByte = (b) => { uartText += String.fromCharCode(b); };
    serialLog.write(`\n===== power-on #${bootNo} (${source}) =====\n`);
    // display on the I2C bus formed by SDA/SCL
    const { sda, scl } = cfg;
    const hwPair = sda % 2 === 0 && scl % 2 === 1 && ((sda >> 1) & 1) === ((scl >> 1) & 1);
    this.i2cIndex = hwPair ? (sda >> 1) & 1 : null;
    this.pinmux = { checks: 0, bad: 0 };
    this.oled = new SSD1306(hwPair ? mcu.i2c[this.i2cIndex] : { }, {
      address: cfg.i2cAddr, controller: cfg.display, clock: this.clock, core: this.core, timing: cfg.i2cTiming,
      strictPins: true,
      pinCheck: () => {
        this.pinmux.checks++;
        const ok = mcu.gpio[sda].functionSelect === I2C_FUNC && mcu.gpio[scl].functionSelect === I2C_FUNC;
        if (!ok) this.pinmux.bad++;
        return ok;
      },
    });
    this.oled.onFrame = () => { if (this.info.firstFrameMs === null) this.info.firstFrameMs = this.ms(); };
    this.bus = new BitBangI2CBus(mcu, sda, scl, this.oled);   // SoftI2C / I2C.scan() bit-banging
    // pads: rp2040js does not model pulls or output->input loopback; every GPIO except the
    // I2C bus pins gets a pad model (driven output reads back, pull-up/-down set the level,
    // buttons short to GND while pressed)
    this.pressed = new Set(); this.forced = new Map(); this.floating = new Set();
    for (let p = 0; p < 30; p++) {
      if (p === sda || p === scl) continue;
      mcu.gpio[p].addListener(() => this.padUpdate(p));
      this.padUpdate(p);
    }
    // flash
    this.flashBusy = null; this.trigger = null; this.cutAtNs = Infinity; this.cutNow = false; this.dead = false;
    this.flashStats = { erase: 0, program: 0, bytesProgrammed: 0, bytesErased: 0, busyMs: 0 };
    this.flashLog = []; this.lastFlashNs = -Infinity;
    this.core.PC = FLASH_BASE; // start at boot2 in flash, like rp2040js' demo
  }
  ms() { return this.clock.nanos / MS; }
  flashBytes() { return this.mcu.flash.slice(0, FLASH_SIZE); }

  padUpdate(p) {
    const pin = this.mcu.gpio[p];
    let level;
    if (this.forced.has(p)) level = this.forced.get(p);
    else if (this.pressed.has(p)) level = false;                   // button shorts the pin to GND
    else if (pin.outputEnable) level = pin.outputValue;            // driven pin reads its own level
    else if (extPullup.has(p)) level = true;                       // external pull-up resistor
    else if (pin.pullupEnabled && pin.pulldownEnabled) level = pin.rawInputValue;   // bus keeper
    else if (pin.pullupEnabled) level = true;
    else if (pin.pulldownEnabled) level = false;
    else if (buttonPins.has(p)) {                                  // released button without pull-up: floating
      level = false; if (pin.inputEnable && pin.functionSelect === 5) this.floating.add(p);
    } else level = pin.rawInputValue;                              // floating: keep the last level
    if (pin.rawInputValue !== level) pin.setInputValue(level);
  }
  drivePins() {
    for (const p of buttonPins) this.padUpdate(p);
    // feed queued host->device text into the 512-byte CDC FIFO
    while (this.txQueue.length && this.cdc.txFIFO.itemCount < 500) this.cdc.sendSerialByte(this.txQueue.shift());
  }
  sendText(s) { for (const ch of Buffer.from(s, 'latin1')) this.txQueue.push(ch); }

  // ---- flash writes: the SDK calls the bootrom's flash_range_erase/program (rp2040js' SSI
  // model drops them), so they are intercepted at the ROM entry point, applied to the flash
  // array with NOR semantics and the core is stalled for the chip's busy time.
  flashHook(pc) {
    const { core, clock, mcu } = this;
    const r = core.registers;
    const isProg = pc === ROM_RP;
    const addr = r[0] & 0xffffff, count = r[isProg ? 2 : 1] >>> 0;
    const op = { i: this.flashStats.erase + this.flashStats.program, kind: isProg ? 'program' : 'erase',
      offs: addr % FLASH_SIZE, len: count, startNs: clock.nanos, units: [] };
    if (isProg) {
      const src = r[1] >>> 0;
      const data = new Uint8Array(count);
      for (let i = 0; i < count; i++) data[i] = mcu.readUint8(src + i);
      for (let a = addr, k = 0; k < count;) {
        const n = Math.min(256 - (a & 255), count - k);
        op.units.push({ addr: a % FLASH_SIZE, len: n, data: data.subarray(k, k + n), ns: FT.page * MS });
        a += n; k += n;
      }
    } else {
      const bs = r[2] >>> 0, cmd = r[3] & 0xff, goal = addr + count;
      for (let a = addr; a < goal;) {
        if (bs && a % bs === 0 && goal - a >= bs) {
          op.units.push({ addr: a % FLASH_SIZE, len: bs, erase: true, ns: (cmd === 0x52 ? FT.block32 : FT.block64) * MS }); a += bs;
        } else { op.units.push({ addr: (a & ~0xfff) % FLASH_SIZE, len: 4096, erase: true, ns: FT.sector * MS }); a += 4096; }
      }
    }
    op.durNs = op.units.reduce((s, u) => s + u.ns, 0);
    this.lastFlashNs = clock.nanos;
    op.endNs = op.startNs + op.durNs;
    core.PC = core.LR & ~1;            // return from the ROM routine without running it
    this.flashStats[op.kind]++;
    const t = this.trigger;
    if (t && t.type === 'flash' && (t.kind === 'any' || t.kind === op.kind)) {
      op.trigIndex = ++t.seen;
      if (t.during && t.seen === t.n) {  // tear the middle unit of this operation
        const m = Math.floor(op.units.length / 2);
        t.reason = 'during flash-op ' + t.n;
        if (op.durNs > 0) {
          this.cutAtNs = op.startNs + op.units.slice(0, m).reduce((s, u) => s + u.ns, 0) + op.units[m].ns / 2;
        } else {
          this.flashBusy = op; op.forceTear = m; this.powerCut('flash-op ' + t.n + ' (during)'); return;
        }
      }
    }
    if (op.durNs === 0) this.finishFlashOp(op); else this.flashBusy = op;
  }
  applyUnit(u, fraction = 1) {
    const f = this.mcu.flash;
    const n = Math.floor(u.len * fraction);
    if (u.erase) f.fill(0xff, u.addr, u.addr + n);
    else for (let i = 0; i < n; i++) f[u.addr + i] &= u.data[i];   // NOR: programming only clears bits
  }
  // interrupted unit, --torn garbage: erase leaves random bits set, program leaves random bits unprogrammed
  garbleUnit(u, seed) {
    const f = this.mcu.flash;
    let x = (seed * 2654435761) >>> 0 || 1;
    for (let i = 0; i < u.len; i++) {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      const rnd = x & 0xff;
      if (u.erase) f[u.addr + i] |= rnd; else f[u.addr + i] &= u.data[i] | rnd;
    }
  }
  logOp(op, extra = {}) {
    this.flashStats.busyMs += (Math.min(this.clock.nanos, op.endNs) - op.startNs) / MS;
    if (op.kind === 'program') this.flashStats.bytesProgrammed += op.len; else this.flashStats.bytesErased += op.units.reduce((s, u) => s + u.len, 0);
    if (this.flashLog.length < 5000) {
      const fsBlock = op.offs >= FS_OFFSET ? Math.floor((op.offs - FS_OFFSET) / FS_BLOCK) : null;
      this.flashLog.push({ i: op.i, kind: op.kind, offs: '0x' + op.offs.toString(16), len: op.len, fsBlock,
        atMs: +(op.startNs / MS).toFixed(4), busyMs: +(op.durNs / MS).toFixed(3), ...extra });
    }
  }
  finishFlashOp(op) {
    this.lastFlashNs = this.clock.nanos;
    for (const u of op.units) this.applyUnit(u);
    this.flashBusy = null;
    this.logOp(op);
    const t = this.trigger;
    if (t && t.type === 'flash' && !t.during && op.trigIndex === t.n) this.powerCut('after flash-op ' + t.n);
  }
  powerCut(reason) {
    const { clock, core } = this;
    let inFlight = null;
    const op = this.flashBusy;
    if (op) {   // power lost while the flash chip was busy: finished units stick, the current one tears
      const e = clock.nanos - op.startNs;
      let t = 0, u = 0;
      if (op.forceTear !== undefined) u = op.forceTear;
      else while (u < op.units.length && t + op.units[u].ns <= e) t += op.units[u++].ns;
      for (let k = 0; k < u; k++) this.applyUnit(op.units[k]);
      let torn = null;
      if (u < op.units.length && (op.forceTear !== undefined || e > t)) {
        const un = op.units[u];
        if (cfg.torn === 'half') this.applyUnit(un, 0.5);
        else if (cfg.torn === 'garbage') this.garbleUnit(un, op.i * 1000 + u + 1);
        torn = { unit: u, addr: '0x' + un.addr.toString(16), len: un.len, mode: cfg.torn };
      }
      inFlight = { i: op.i, kind: op.kind, offs: '0x' + op.offs.toString(16), len: op.len, unitsDone: u, units: op.units.length, torn };
      this.logOp(op, { cut: true, unitsDone: u });
      this.flashBusy = null;
    }
    this.dead = true; this.cutNow = true;
    this.cut = { reason, atMs: +this.ms().toFixed(6), cpuCycles: core.cycles, inFlightFlashOp: inFlight };
  }

  // ---- deterministic run loop on simulated time.  Returns true when until() became true.
  run(maxNs, until = null) {
    const { core, clock } = this;
    const regs = core.registers;
    const end = clock.nanos + maxNs;
    let n = 0;
    for (;;) {
      if (this.cutNow) return until ? !!until() : false;
      if (clock.nanos >= this.cutAtNs) { this.powerCut(this.trigger ? this.trigger.reason : 'time'); continue; }
      if ((n++ & 255) === 0) { this.drivePins(); if (until && until()) return true; }
      if (clock.nanos >= end) return until ? !!until() : true;
      const limit = end < this.cutAtNs ? end : this.cutAtNs;
      const busy = this.flashBusy;
      if (busy) {                                    // CPU spins in the ROM while the chip is busy
        let target = busy.endNs < limit ? busy.endNs : limit;
        const na = clock.nextAlarm;
        if (na && na.nanos < target) target = na.nanos > clock.nanos ? na.nanos : clock.nanos;
        const d = target - clock.nanos;
        clock.tick(d); core.cycles += Math.round(d / NS_PER_CYCLE);
        if (clock.nanos >= busy.endNs) this.finishFlashOp(busy);
      } else if (core.waiting) {                     // WFI/WFE: skip to the next alarm
        const na = clock.nextAlarm;
        let target = na ? na.nanos : clock.nanos + 10000;
        if (target > limit) target = limit;
        clock.tick(target > clock.nanos ? target - clock.nanos : 0);
      } else {
        const pc = regs[15];
        if (pc === ROM_RP || pc === ROM_RE) { this.flashHook(pc); continue; }
        clock.tick(core.executeInstruction() * NS_PER_CYCLE);
      }
    }
  }
  runFor(ms) { return this.run(ms * MS); }
  runUntil(cond, timeoutMs) { return this.run(timeoutMs * MS, cond); }
}

// ---------------------------------------------------------------- helpers
const fmt = (x, d = 3) => (x === null || x === undefined ? '-' : typeof x === 'number' ? x.toFixed(d) : String(x));
function frameHash(o) {
  const h = crypto.createHash('sha1');
  const bits = new Uint8Array(o.width * o.height);
  for (let y = 0; y < o.height; y++) for (let x = 0; x < o.width; x++) bits[y * o.width + x] = o.panelPixel(x, y);
  return h.update(bits).digest('hex').slice(0, 12);
}
function capture(m, name) {
  const safe = String(name).replace(/[^A-Za-z0-9_.+-]/g, '_');
  m.oled.writePNG(path.join(cfg.out, safe + '.png'));
  m.oled.writePNG(path.join(cfg.out, safe + '_gddram.png'), { panel: false });
  const txt = m.oled.toAscii();
  fs.writeFileSync(path.join(cfg.out, safe + '.txt'), txt + '\n');
  return { png: safe + '.png', txt: safe + '.txt', gddram: safe + '_gddram.png', hash: frameHash(m.oled), displayOn: m.oled.displayOn };
}
function dumpFlash(m, prefix) {
  const bin = path.join(cfg.out, prefix + 'flash.bin');
  fs.writeFileSync(bin, m.flashBytes());
  const dir = path.join(cfg.out, prefix + 'fs');
  fs.rmSync(dir, { recursive: true, force: true });
  let listing;
  try { listing = JSON.parse(execFileSync(PY, [path.join(RIG, 'tools/lfsdump.py'), bin, dir], { encoding: 'utf8' })); }
  catch (e) { listing = { ok: false, error: 'lfsdump failed: ' + e.message }; }
  return { flashImage: path.basename(bin), fsDir: listing.ok ? path.basename(dir) : null, fs: listing };
}
const cyc = (t) => ({ cpuCycles: t.cycles, simCycles: Math.round(t.nanos / NS_PER_CYCLE), ms: t.nanos / MS });
function since(t0, t) { return t ? { ms: +((t.nanos - t0.nanos) / MS).toFixed(6), cpuCycles: t.cycles - t0.cycles, simCycles: Math.round((t.nanos - t0.nanos) / NS_PER_CYCLE) } : null; }

// ---------------------------------------------------------------- steps
const results = { config: { ...cfg, script: cfg.script, buttonPins: [...buttonPins], romFlashRangeErase: '0x' + ROM_RE.toString(16),
  romFlashRangeProgram: '0x' + ROM_RP.toString(16), flashTimingMs: FT }, boots: [], steps: [], cuts: [] };
const t0host = Date.now();
let img0, src0;
try { ({ img: img0, source: src0 } = initialFlash()); } catch (err) { console.error('[drive] ' + (err.message || err)); process.exit(2); }
let m = new Machine(img0, 1, src0);
const machines = [m];
let armed = null;      // step entry of an armed power-cut trigger
let cutCount = 0;

function arm(entry, trig) {
  if (armed && !armed.cut) { armed.note = 'replaced by step ' + entry.i; armed.ok = false; }
  armed = entry;
  trig.reason = entry.kind.replace('power_cut_', '') + ' ' + JSON.stringify(entry.step[entry.kind]);
  m.trigger = trig;
  if (trig.type === 'time') m.cutAtNs = Math.max(trig.atNs, m.clock.nanos);
  else m.cutAtNs = Infinity;
}
function afterCut(curEntry, byTrigger = true) {
  // called once when the machine lost power: dump flash + fs, fill in the arming step's entry
  m.cutHandled = true;
  cutCount++;
  const info = { n: cutCount, boot: m.bootNo, ...m.cut, flashOpsThisBoot: m.flashStats.erase + m.flashStats.program,
    interruptedStep: curEntry ? curEntry.i : null, ...dumpFlash(m, `cut${cutCount}-`) };
  results.cuts.push(info);
  if (armed && byTrigger) { armed.cut = info; armed.ok = true; }
  else if (armed) { armed.ok = false; armed.error = 'machine powered off before the trigger fired'; }
  armed = null;
  if (curEntry && curEntry !== armed && byTrigger) curEntry.interruptedByPowerCut = cutCount;
  m.trigger = null; m.cutAtNs = Infinity;
  return info;
}
function boot(source) {
  const prev = m;
  const next = new Machine(prev.flashBytes(), prev.bootNo + 1, source);
  machines.push(next);
  m = next;
  return next;
}

const STEP_FN = {
  wait_ms(s, e) { m.runFor(+s.wait_ms); e.ok = true; },
  wait_frame_idle_ms(s, e) {
    const idle = +s.wait_frame_idle_ms * MS, f0 = m.oled.frames;
    e.ok = m.runUntil(() => (s.new_frame ? m.oled.frames > f0 : m.oled.frames > 0) && m.clock.nanos - m.oled.lastActivityNanos >= idle,
      s.timeout_ms ?? 10000);
    e.frames = m.oled.frames;
    if (!e.ok) e.error = m.oled.frames ? 'display never idle' : 'no frame drawn';
  },
  press(s, e) { doPress(s, e, [+s.press], s.hold_ms ?? 80); },
  long_press(s, e) { doPress(s, e, [+s.long_press], s.hold_ms ?? 1000); },
  press_many(s, e) { doPress(s, e, s.press_many.map(Number), s.hold_ms ?? 80); },
  set_pin(s, e) {
    const p = +s.set_pin;
    if (s.value === null || s.value === undefined || s.value === 'release') m.forced.delete(p); else m.forced.set(p, !!+s.value);
    m.drivePins(); e.ok = true; e.level = m.mcu.gpio[p].rawInputValue ? 1 : 0;
    if (s.wait_ms) m.runFor(+s.wait_ms);
  },
  capture(s, e) { e.capture = capture(m, s.capture); e.ok = true; },
  type(s, e) { m.sendText(s.type); if (s.wait_ms) m.runFor(+s.wait_ms); e.ok = true; },
  expect_serial(s, e) {
    const pat = s.regex ? new RegExp(s.expect_serial) : null;
    let lastLen = -1, found = null;
    e.ok = m.runUntil(() => {
      if (m.serial.length === lastLen) return false;
      lastLen = m.serial.length;
      const hay = m.serial.slice(m.expectPos);
      if (pat) { const r = pat.exec(hay); if (r) found = { at: r.index, text: r[0], groups: r.slice(1) }; }
      else { const k = hay.indexOf(s.expect_serial); if (k >= 0) found = { at: k, text: s.expect_serial }; }
      return !!found;
    }, s.timeout_ms ?? 3000);
    if (found) { e.match = found.text; if (found.groups) e.groups = found.groups; e.matchAtMs = +m.ms().toFixed(3); m.expectPos += found.at + found.text.length; }
    else e.error = 'not seen: ' + JSON.stringify(s.expect_serial);
  },
  heap(s, e) {
    if (!toPrompt(e, s.timeout_ms ?? 2000)) return;
    const p0 = m.serial.length;
    m.sendText("import gc; gc.collect(); print('HEAP', gc.mem_alloc(), gc.mem_free())\r");
    let r = null;
    m.runUntil(() => (r = /\nHEAP (\d+) (\d+)\r\n>>> $/.exec(m.serial.slice(p0))), s.timeout_ms ?? 2000);
    e.ok = !!r;
    if (r) { e.heap = { alloc: +r[1], free: +r[2], total: +r[1] + +r[2] }; m.expectPos = m.serial.length; }
    else e.error = 'no HEAP line';
  },
  soft_reset(s, e) {
    if (!toPrompt(e, 2000)) return;
    const p0 = m.serial.length;
    m.sendText('\x04');
    e.ok = m.runUntil(() => m.serial.indexOf('soft reboot', p0) >= 0, s.timeout_ms ?? 2000);
    if (e.ok) m.expectPos = m.serial.indexOf('soft reboot', p0);
  },
  power_cut_at_ms(s, e) { arm(e, { type: 'time', atNs: +s.power_cut_at_ms * MS }); e.armedAtMs = +m.ms().toFixed(3); e.ok = null; },
  power_cut_in_ms(s, e) { arm(e, { type: 'time', atNs: m.clock.nanos + +s.power_cut_in_ms * MS }); e.armedAtMs = +m.ms().toFixed(3); e.ok = null; },
  power_cut_after_flash_ops(s, e) {
    const kind = s.kind || 'any';
    if (!['any', 'program', 'erase'].includes(kind)) throw new Error('kind must be any|program|erase');
    arm(e, { type: 'flash', n: +s.power_cut_after_flash_ops, kind, during: !!s.during, seen: 0, timeoutMs: s.timeout_ms ?? 10000 });
    e.armedAtMs = +m.ms().toFixed(3); e.ok = null;
  },
  power_on(s, e) {
    if (!m.dead) { m.powerCut(e.kind + ' while running'); e.cut = afterCut(e, false); }
    e.fromCut = cutCount;
    boot(`power-on after cut ${cutCount}`); e.ok = true; e.boot = m.bootNo;
  },
  power_cycle(s, e) { STEP_FN.power_on(s, e); },
};

// Ctrl-C until the friendly REPL prompt shows up (stops a running main.py)
function toPrompt(e, timeoutMs) {
  for (let k = 0; k < 3; k++) {
    const p0 = m.serial.length;
    m.sendText('\x03');
    if (m.runUntil(() => m.serial.length > p0 && m.serial.endsWith('>>> '), timeoutMs / 3)) { e.prompt = true; return true; }
    if (m.dead) return false;
  }
  e.ok = false; e.error = 'no REPL prompt after Ctrl-C';
  return false;
}

function doPress(s, e, pinList, holdMs) {
  const idleNs = (s.idle_ms ?? 50) * MS;
  const mon = { dataBytes: 0, cmdBytes: 0, ctrlBytes: 0, transactions: 0, nacks: 0, frames: 0, firstData: null, lastData: null, firstByte: null };
  m.oled.mon = mon;
  const edge = { cycles: m.core.cycles, nanos: m.clock.nanos };
  for (const p of pinList) m.pressed.add(p);
  m.drivePins();
  e.pins = pinList; e.holdMs = holdMs;
  e.edge = cyc(edge);
  m.runFor(holdMs);
  let settled = false;
  if (!m.dead) {
    for (const p of pinList) m.pressed.delete(p);
    m.drivePins();
    const rel = m.clock.nanos;
    e.releaseMs = +(rel / MS).toFixed(6);
    // settled: no I2C traffic and no flash program/erase for idle_ms (and the flash chip not busy)
    settled = m.runUntil(() => !m.flashBusy && m.clock.nanos - Math.max(m.oled.lastActivityNanos, m.lastFlashNs, rel) >= idleNs, s.timeout_ms ?? 5000);
  } else for (const p of pinList) m.pressed.delete(p);
  m.oled.mon = null;
  e.response = {
    firstData: since(edge, mon.firstData), lastData: since(edge, mon.lastData), firstByte: since(edge, mon.firstByte),
    i2c: { dataBytes: mon.dataBytes, cmdBytes: mon.cmdBytes, ctrlBytes: mon.ctrlBytes, transactions: mon.transactions, nacks: mon.nacks, frames: mon.frames },
  };
  e.redrawn = mon.dataBytes > 0;
  e.settled = settled;
  e.ok = m.dead ? true : settled && (!s.expect_redraw || e.redrawn);
  if (!settled && !m.dead) e.error = 'I2C/flash not idle for ' + (s.idle_ms ?? 50) + ' ms within timeout';
  else if (s.expect_redraw && !e.redrawn) e.error = 'no display data after press';
  if (s.capture !== false) e.capture = capture(m, typeof s.capture === 'string' ? s.capture : `step${String(e.i).padStart(2, '0')}-${pinList.length > 1 ? 'chord' : s.long_press !== undefined ? 'long' : 'press'}-GP${pinList.join('+')}`);
}

function stepArg(kind, s) {
  const v = s[kind];
  if (kind === 'type' || kind === 'expect_serial') return JSON.stringify(v).slice(0, 24);
  if (Array.isArray(v)) return v.join('+');
  return v === true ? '' : String(v);
}

for (let i = 0; i < script.length; i++) {
  const s = script[i], kind = s.__kind;
  const { __kind, ...orig } = s;
  const e = { i, boot: m.bootNo, kind, label: s.label ?? null, step: orig, ok: false };
  results.steps.push(e);
  if (m.dead && kind !== 'power_on' && kind !== 'power_cycle') { e.ok = null; e.skipped = 'machine is off (power cut); add {"power_on": true}'; continue; }
  const st = { ms: m.ms(), cycles: m.core.cycles, serial: m.serial.length, fl: { ...m.flashStats } };
  try { STEP_FN[kind](s, e); } catch (err) { e.ok = false; e.error = String(err && err.stack || err); }
  const booted = kind === 'power_on' || kind === 'power_cycle';
  const M = booted ? machines[machines.length - 2] : m;   // the machine the step ran on
  if (m.dead && !m.cutHandled) afterCut(e);
  if (e.interruptedByPowerCut) { e.ok = true; if (e.error) { e.unfinished = e.error; delete e.error; } }  // not judged: power went away
  e.tStartMs = +st.ms.toFixed(3); e.tEndMs = +m.ms().toFixed(3);
  e.cpuCycles = booted ? 0 : M.core.cycles - st.cycles;
  e.flashOps = { erase: M.flashStats.erase - st.fl.erase, program: M.flashStats.program - st.fl.program,
    bytesProgrammed: M.flashStats.bytesProgrammed - st.fl.bytesProgrammed };
  const out = M.serial.slice(st.serial);
  const exc = /Traceback \(most recent call last\):[\s\S]*?\r?\n(\w*(?:Error|Exception|Interrupt)\b[^\r\n]*)/.exec(out);
  if (exc && !/KeyboardInterrupt/.test(exc[1])) e.exception = exc[1];
  if (out) e.serial = out.length > 1500 ? out.slice(0, 700) + ' [...] ' + out.slice(-700) : out;
  const r = e.response;
  console.log(`[drive] #${i} ${kind} ${stepArg(kind, s)} -> ${e.ok === null ? (e.skipped ? 'skipped' : 'armed') : e.ok ? 'ok' : 'FAIL'}` +
    (r ? ` first-data ${fmt(r.firstData?.ms)} ms last-data ${fmt(r.lastData?.ms)} ms, ${r.i2c.dataBytes} data/${r.i2c.cmdBytes} cmd bytes` : '') +
    (e.heap ? ` heap alloc=${e.heap.alloc} free=${e.heap.free}` : '') + (e.error ? ' (' + e.error.split('\n')[0] + ')' : '') + (e.exception ? ' [app: ' + e.exception + ']' : '') +
    (e.interruptedByPowerCut ? ` [power cut #${e.interruptedByPowerCut} at ${M.cut.atMs} ms]` : '') +
    (booted ? ` -> boot #${m.bootNo}` : ''));
}

// a trigger still armed at the end of the script: keep running until it fires
if (armed && !armed.cut && !m.dead && m.trigger) {
  const t = m.trigger, entry = armed;
  const limitMs = t.type === 'time' ? Math.max(0, (t.atNs - m.clock.nanos) / MS) + 1 : t.timeoutMs;
  m.runFor(limitMs);
  if (m.dead && !m.cutHandled) afterCut(null);
  if (!entry.cut) { entry.ok = false; entry.error = 'trigger did not fire within ' + limitMs + ' ms after the last step'; }
}
if (armed && armed.ok === null) armed.ok = false;

// ---------------------------------------------------------------- final state
for (const mm of machines) {
  results.boots.push({ ...mm.info, endMs: +mm.ms().toFixed(3), cpuCycles: mm.core.cycles, poweredOff: mm.dead,
    cut: mm.cut ?? null, i2c: mm.oled.stats, frames: mm.oled.frames, pinmux: mm.pinmux, i2cController: mm.i2cIndex,
    oled: { controller: mm.oled.controller, displayOn: mm.oled.displayOn, addrMode: mm.oled.addrMode, segRemap: mm.oled.segRemap,
      comRemap: mm.oled.comRemap, startLine: mm.oled.startLine, unknownCmds: mm.oled.unknownCmds ?? null },
    floatingInputs: [...mm.floating], flash: mm.flashStats, flashOps: mm.flashLog });
}
results.final = { boot: m.bootNo, poweredOff: m.dead, ...dumpFlash(m, '') };
results.finalCapture = capture(m, 'final');
results.emulatorWarnings = Object.fromEntries(emuWarnings);
if (uartText) { fs.writeFileSync(path.join(cfg.out, 'uart.log'), uartText); results.uartBytes = uartText.length; }
results.hostSeconds = (Date.now() - t0host) / 1000;
results.ok = results.steps.filter((e) => !e.skipped).every((e) => e.ok === true);
fs.writeFileSync(path.join(cfg.out, 'results.json'), JSON.stringify(results, null, 2));
fs.writeFileSync(path.join(cfg.out, 'serial.log'), serialLog.text);

// ---------------------------------------------------------------- compact table
const rows = [['#', 'boot', 'step', 'ok', 't_end_ms', '1st_ms', 'last_ms', '1st_cyc', 'last_cyc', 'data', 'cmd', 'flash', 'info']];
for (const e of results.steps) {
  const r = e.response;
  let info = '';
  if (e.capture) info = e.capture.png + ' #' + e.capture.hash;
  if (e.heap) info = `alloc=${e.heap.alloc} free=${e.heap.free}`;
  if (e.match) info = 'matched ' + JSON.stringify(e.match);
  if (e.cut) info = `CUT @${e.cut.atMs.toFixed(3)}ms (${e.cut.reason})` + (e.cut.inFlightFlashOp ? ` torn ${e.cut.inFlightFlashOp.kind}@${e.cut.inFlightFlashOp.offs}` : '') +
    ` fs:${e.cut.fs.ok ? e.cut.fs.files.map((f) => f.path + (f.text !== undefined ? '=' + JSON.stringify(f.text) : '')).filter((x) => !x.endsWith('.py')).join(',') || 'ok' : 'UNMOUNTABLE'}`;
  if (e.kind === 'power_on' || e.kind === 'power_cycle') info = 'boot #' + e.boot + ' from cut ' + e.fromCut + (e.cut ? ' (cut now)' : '');
  if (e.skipped) info = 'skipped (powered off)';
  if (e.interruptedByPowerCut) info += (info ? ' ' : '') + `[cut #${e.interruptedByPowerCut}]`;
  if (e.error) info += (info ? ' ' : '') + 'ERR: ' + e.error.split('\n')[0];
  if (e.exception) info += ' [app: ' + e.exception + ']';
  const fo = e.flashOps ? (e.flashOps.erase || e.flashOps.program ? `${e.flashOps.erase}e/${e.flashOps.program}p` : '-') : '-';
  rows.push([String(e.i), String(e.boot), (e.kind + ' ' + stepArg(e.kind, e.step)).trim().slice(0, 32),
    e.ok === null ? '-' : e.ok ? 'ok' : 'FAIL', fmt(e.tEndMs), fmt(r?.firstData?.ms), fmt(r?.lastData?.ms),
    r?.firstData ? String(r.firstData.cpuCycles) : '-', r?.lastData ? String(r.lastData.cpuCycles) : '-',
    r ? String(r.i2c.dataBytes) : '-', r ? String(r.i2c.cmdBytes) : '-', fo, info]);
}
const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r) => r.map((x, c) => (c === r.length - 1 ? x : c >= 4 && c <= 11 ? x.padStart(w[c]) : x.padEnd(w[c]))).join('  ');
console.log('\n' + line(rows[0]) + '\n' + rows.slice(1).map(line).join('\n'));
const emuErrors = [...emuWarnings].filter(([k]) => k.includes('] ERROR '));
if (emuWarnings.size) console.log(`[drive] rp2040js reported ${emuWarnings.size} distinct unmodelled-register accesses (results.json: emulatorWarnings)` +
  (emuErrors.length ? '; errors: ' + emuErrors.map(([k, v]) => `${k} (x${v})`).join('; ') : ''));
console.log(`[drive] ${results.ok ? 'PASS' : 'FAIL'}; boots=${machines.length}, cuts=${results.cuts.length}, final fs ${results.final.fs.ok ? 'mounts (' + results.final.fs.files.length + ' files)' : 'DOES NOT MOUNT'}, ` +
  `host ${results.hostSeconds}s -> ${path.join(cfg.out, 'results.json')}`);
process.exit(results.ok ? 0 : 1);
