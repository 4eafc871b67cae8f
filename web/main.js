// Tablemate in a web page: the firmware's own files running in MicroPython's WebAssembly VM.
//
// Boot: fetch the VM and the files of the gadget's filesystem (fs.json holds them: the
// firmware/ folder as it goes on the Pico, plus this page's machine.py and webgadget.py in
// /lib), put back the flash (/data) from the browser's storage, then let the firmware's boot
// code build the gadget on the page's `machine` (py/machine.py). The loop runs one pass every
// 10 ms, and one more at once when a button changes (on the Pico a pin interrupt ends the
// loop's nap). Nothing of a game or a screen is here: the canvas is what the firmware's SSD1306
// driver sent over I2C, decoded by panel.js; the buttons are pin levels that the firmware's key
// state machine (tablemate/keys.py) reads; the buzzer is the PWM it drives (buzzer.js).

import { loadMicroPython } from "./vm/micropython.mjs";
import { SSD1306, Screen } from "./panel.js";
import { Buzzer } from "./buzzer.js";
import { Flash, parseImport } from "./flash.js";

const TICK_MS = 10;
// A finger holds or leaves a contact for at least this long: taps that the browser reports
// closer together (a quick click, a script) are spread out to it, so the firmware sees each
// press and each release, as it would see a person's.
const MIN_PHASE_MS = 40;
const LONG_MS = 900; // BACK on layouts without that button: a long OK, as in the simulator
const ALL = ["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"];
const LAYOUT_KEYS = {
  six: ["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"],
  five: ["UP", "DOWN", "LEFT", "RIGHT", "OK"],
  three: ["UP", "DOWN", "OK"],
  encoder: ["OK"], // the knob's push; turning is UP/DOWN
};
const KEYMAP = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
  w: "UP", s: "DOWN", a: "LEFT", d: "RIGHT", W: "UP", S: "DOWN", A: "LEFT", D: "RIGHT",
  Enter: "OK", " ": "OK", Backspace: "BACK", Escape: "BACK", b: "BACK", B: "BACK",
  o: "LONG_OK", O: "LONG_OK",
};
const HELP = {
  six: "Arrows/WASD move · Enter/Space OK · Backspace/Esc BACK · o long OK",
  five: "Arrows/WASD move · Enter/Space OK · Backspace/Esc/o BACK (= hold OK)",
  three: "↑/↓ PREV/NEXT · Enter/Space OK · Backspace/Esc/o BACK (= hold OK)",
  encoder: "↑/↓ turn the knob · Enter/Space push · Backspace/Esc/o BACK (= long push)",
};
const LABELS = {
  six: {}, five: {},
  three: { UP: "PREV", DOWN: "NEXT" },
  encoder: { UP: "⟲", DOWN: "⟳", OK: "push" },
};

const $ = (id) => document.getElementById(id);

// The board's calendar clock (py/machine.py's RTC): this computer's local time, as every
// `tablemate` command sets a Pico's, so that the games played here are dated. rp2's
// RTC.datetime order, the weekday counted from Monday.
function wallClock(d) {
  return [d.getFullYear(), d.getMonth() + 1, d.getDate(), (d.getDay() + 6) % 7,
    d.getHours(), d.getMinutes(), d.getSeconds()].join(" ");
}
// The folder the page is served from: its flash and its tab lock are this folder's.
const SCOPE = new URL(".", location.href).pathname;

class Gadget {
  constructor() {
    this.panel = new SSD1306(false);
    this.screen = new Screen($("oled"), this.panel);
    this.buzzer = new Buzzer();
    this.layout = "six";
    this.running = false;
    this.passes = 0;
    this.firstFrameAt = 0; // performance.now() when the first frame was on the canvas
    this.marks = {}; // performance.now() at each stage of the boot (tools/web_bench.py)
    // Press to canvas: when the last press (or knob detent) came (its event's time), and for
    // each press that redrew: ms to the canvas draw, and to the next animation frame.
    this.pressAt = 0;
    this.latency = [];
    this.paintLatency = [];
    // Per button: how many sources hold it (a touch, a key), the level the firmware sees, the
    // changes still to hand it and when it was last given one.
    this.held = {};
    this.level = {};
    this.queue = {};
    this.changedAt = {};
    this.pressedAt = {};
    for (const name of ALL) {
      this.held[name] = 0; this.level[name] = false; this.queue[name] = [];
      this.changedAt[name] = -1e9; this.pressedAt[name] = 0;
    }
  }

  async boot() {
    this.marks.start = performance.now();
    // The VM (fetched and compiled while it streams) and the gadget's files, side by side.
    const vm = loadMicroPython({
      heapsize: 2 * 1024 * 1024, linebuffer: true,
      stdout: (line) => console.log("[tablemate] " + line),
      stderr: (line) => console.error("[tablemate] " + line),
    });
    const pack = fetch("fs.json").then((res) => {
      if (!res.ok) throw new Error("fs.json: " + res.status);
      return res.json();
    });
    const mp = await vm;
    this.marks.vm = performance.now();
    const fs = await pack;
    this.marks.files = performance.now();
    this.mp = mp;
    const FS = mp.FS;
    for (const [name, text] of Object.entries(fs.files)) {
      const path = "/" + name;
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
      FS.writeFile(path, text);
    }
    this.flash = new Flash(FS, localStorage, SCOPE);
    this.flash.restore();
    this.flash.watch();
    mp.registerJsModule("webio", {
      i2c: (hex) => this.panel.writeHex(hex),
      pwm: (freq, duty) => this.buzzer.set(freq, duty),
      layout: (name) => this.layoutChanged(name),
      clock: () => wallClock(new Date()),
    });
    mp.runPython("import webgadget");
    this.marks.imported = performance.now();
    this.py = mp.pyimport("webgadget");
    if (!this.py.boot()) throw new Error("the firmware did not start");
    this.marks.booted = performance.now();
    this.firmware = this.py.version();
    this.afterPass();
    this.running = true;
    const wanted = new URLSearchParams(location.search).get("layout");
    if (wanted && LAYOUT_KEYS[wanted] && wanted !== this.layout) this.useLayout(wanted);
    this.next = performance.now() + TICK_MS;
    this.timer = setTimeout(() => this.loop(), TICK_MS);
  }

  loop() {
    if (!this.running) return;
    try {
      this.pass();
    } catch (err) { // the page's own code failed (the firmware's errors are its error screen's)
      this.stop();
      $("boot-error").hidden = false;
      $("boot-error").textContent = "Tablemate stopped: " + err.message;
      throw err;
    }
    const now = performance.now();
    this.next += TICK_MS;
    if (this.next < now) this.next = now + TICK_MS; // late (a background tab): no burst
    this.timer = setTimeout(() => this.loop(), this.next - now);
  }

  // One pass of the firmware's loop, with the button changes that are due handed in first.
  pass() {
    const now = performance.now();
    for (const name of ALL) {
      const q = this.queue[name];
      if (!q.length || now - this.changedAt[name] < MIN_PHASE_MS || now < q[0].notBefore) continue;
      const down = q.shift().down;
      this.changedAt[name] = now;
      this.level[name] = down;
      this.py.button(name, down);
    }
    this.py.step();
    this.passes++;
    this.afterPass();
  }

  afterPass() {
    if (this.screen.render()) {
      if (!this.firstFrameAt) this.firstFrameAt = performance.now();
      if (this.pressAt) {
        const at = this.pressAt;
        this.pressAt = 0;
        this.latency.push(this.screen.drawnAt - at);
        requestAnimationFrame(() => this.paintLatency.push(performance.now() - at));
      }
    }
    if (this.flash.sync() || this.flash.error) ui.storageProblem(this.flash.error);
    ui.status();
  }

  stop() {
    this.running = false;
    clearTimeout(this.timer);
    this.buzzer.silence();
  }

  // -- buttons ------------------------------------------------------------------------------
  // A source (a touch, a key) holds or lets go of ``name``; ``minHold`` keeps it held at least
  // that long from its press (a long OK).
  hold(name, down, minHold = 0, at = performance.now()) {
    if (!this.running) return;
    const before = this.held[name] > 0;
    this.held[name] = Math.max(0, this.held[name] + (down ? 1 : -1));
    const after = this.held[name] > 0;
    if (before === after) return;
    const now = performance.now();
    if (down) {
      this.pressedAt[name] = now;
      // a press the firmware gets at once (not one queued behind a quick release) is timed
      if (!this.queue[name].length && now - this.changedAt[name] >= MIN_PHASE_MS) this.pressAt = at;
    }
    const notBefore = down ? 0 : this.pressedAt[name] + minHold;
    this.queue[name].push({ down, notBefore });
    this.pass(); // at once, as a pin interrupt ends the Pico's nap
  }

  turn(detents, at = performance.now()) {
    if (!this.running) return;
    this.py.turn(detents);
    this.pressAt = at;
    this.pass();
  }

  releaseAll() {
    for (const name of ALL) {
      if (this.held[name] > 0) {
        this.held[name] = 1;
        this.hold(name, false);
      }
    }
  }

  // True when every button change has been handed to the firmware (for tests and the bench).
  settled() {
    return ALL.every((name) => this.queue[name].length === 0);
  }

  // -- layout -------------------------------------------------------------------------------
  useLayout(name) {
    if (!LAYOUT_KEYS[name]) return;
    this.releaseAll();
    for (const n of ALL) this.queue[n] = [];
    for (const n of ALL) if (this.level[n]) { this.py.button(n, false); this.level[n] = false; }
    this.py.use_layout(name);
    this.afterPass();
    const url = new URL(location.href);
    url.searchParams.set("layout", name);
    history.replaceState(null, "", url);
  }

  layoutChanged(name) {
    this.layout = name;
    ui.layout(name);
  }
}

// -- the page around the gadget ---------------------------------------------------------------
const ui = {
  gadget: null,
  lastStatus: "",

  init(gadget) {
    this.gadget = gadget;
    addEventListener("resize", () => this.fit()); // and layout() fits it first
    matchMedia("(resolution: 1dppx)").addEventListener?.("change", () => this.fit());
    for (const el of document.querySelectorAll("[data-key]")) this.bindButton(el);
    addEventListener("keydown", (e) => this.key(e, true));
    addEventListener("keyup", (e) => this.key(e, false));
    // Keys and touches that the page will not see end (another window, a hidden tab): let go.
    const letGo = () => {
      this.heldKeys.clear();
      if (gadget.running) gadget.releaseAll();
    };
    addEventListener("blur", letGo);
    document.addEventListener("visibilitychange", () => document.hidden && letGo());
    $("layout").addEventListener("change", (e) => {
      gadget.useLayout(e.target.value);
      e.target.blur();
    });
    $("export").addEventListener("click", () => this.exportFiles());
    $("import").addEventListener("click", () => $("import-file").click());
    $("import-file").addEventListener("change", (e) => this.importFile(e.target));
    $("erase").addEventListener("click", () => this.confirm(
      "Erase the device's flash? Settings, the game in progress and the history are lost.",
      "Erase", () => { gadget.stop(); gadget.flash.erase(); location.reload(); }));
    $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
    // A control clicked or tapped gives the keyboard back to the gadget (Enter is OK again);
    // one reached with Tab keeps it, so that Enter and Space work it.
    document.querySelector(".device").addEventListener("click", (e) => {
      const control = e.target.closest("button, summary");
      if (control && e.detail > 0) control.blur();
    });
  },

  // The canvas at an integer number of device pixels per OLED pixel, as large as fits: in the
  // width of its box, and in the height the box has without it (its grid cell, when the keys
  // are beside it) plus what the window has to spare below the gadget, so that the keys stay
  // on the screen; never under 2 CSS pixels an OLED pixel for want of height (then the page
  // scrolls, as it always did).
  fit() {
    const dpr = devicePixelRatio || 1;
    const box = $("oled-box");
    const canvas = $("oled");
    canvas.style.width = canvas.style.height = "0px";
    const pad = getComputedStyle(box);
    const width = box.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
    const spare = innerHeight - parseFloat(getComputedStyle(document.body).paddingBottom)
      - document.querySelector(".gadget").getBoundingClientRect().bottom - scrollY;
    const height = box.clientHeight - parseFloat(pad.paddingTop) - parseFloat(pad.paddingBottom) + spare;
    const avail = Math.min(width, Math.max(2 * height, 256), 768);
    const scale = Math.max(1, Math.floor((avail * dpr) / 128));
    canvas.style.width = (128 * scale) / dpr + "px";
    canvas.style.height = (64 * scale) / dpr + "px";
  },

  bindButton(el) {
    const name = el.dataset.key;
    const pointers = new Set();
    let spin = null;
    const down = (e) => {
      e.preventDefault();
      if (pointers.has(e.pointerId)) return;
      pointers.add(e.pointerId);
      el.setPointerCapture?.(e.pointerId);
      el.classList.add("pressed");
      const g = this.gadget;
      if (g.layout === "encoder" && (name === "UP" || name === "DOWN")) {
        const detent = name === "UP" ? -1 : 1;
        g.turn(detent, e.timeStamp);
        spin = setTimeout(function again() { g.turn(detent); spin = setTimeout(again, 100); }, 400);
      } else if (name === "BACK" && !LAYOUT_KEYS[g.layout].includes("BACK")) {
        g.hold("OK", true, 0, e.timeStamp);
      } else {
        g.hold(name, true, 0, e.timeStamp);
      }
    };
    const up = (e) => {
      if (!pointers.delete(e.pointerId)) return;
      el.classList.remove("pressed");
      clearTimeout(spin);
      const g = this.gadget;
      // Sound may start on a release (a touch's lifting is what allows it on phones), and
      // starting it there keeps its cost (100 ms in a browser here) off the press.
      g.buzzer.unlock();
      if (g.layout === "encoder" && (name === "UP" || name === "DOWN")) return;
      if (name === "BACK" && !LAYOUT_KEYS[g.layout].includes("BACK")) g.hold("OK", false, LONG_MS);
      else g.hold(name, false);
    };
    el.addEventListener("pointerdown", down);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  },

  heldKeys: new Map(), // KeyboardEvent.code -> [button, minHold]

  key(e, down) {
    const g = this.gadget;
    if (!g || !g.running) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    // Enter and Space on a focused control of the page (Export, the Device section) are its own.
    const control = tag === "BUTTON" || tag === "SUMMARY" || tag === "A";
    if (control && (e.key === "Enter" || e.key === " ") && !e.target.dataset.key) return;
    if (down && (e.ctrlKey || e.metaKey || e.altKey)) return;
    if (!down) {
      if (KEYMAP[e.key]) g.buzzer.unlock(); // as for a touch: on the release, off the press
      const held = this.heldKeys.get(e.code);
      if (!held) return;
      this.heldKeys.delete(e.code);
      e.preventDefault();
      g.hold(held[0], false, held[1]);
      return;
    }
    let name = KEYMAP[e.key];
    if (!name) return;
    e.preventDefault();
    const keys = LAYOUT_KEYS[g.layout];
    if (g.layout === "encoder" && (name === "UP" || name === "DOWN")) {
      g.turn(name === "UP" ? -1 : 1, e.timeStamp); // a held key's repeats spin the knob
      return;
    }
    if (e.repeat || this.heldKeys.has(e.code)) return; // the firmware makes its own repeats
    let minHold = 0;
    if (name === "LONG_OK" || (name === "BACK" && !keys.includes("BACK"))) {
      name = "OK";
      minHold = LONG_MS;
    }
    if (!keys.includes(name)) return;
    this.heldKeys.set(e.code, [name, minHold]);
    g.hold(name, true, 0, e.timeStamp);
  },

  layout(name) {
    $("layout").value = name;
    const keys = LAYOUT_KEYS[name];
    const gadget = document.querySelector(".gadget");
    gadget.dataset.layout = name;
    for (const el of document.querySelectorAll("[data-key]")) {
      const key = el.dataset.key;
      const shown = keys.includes(key) || (name === "encoder" && (key === "UP" || key === "DOWN"));
      el.hidden = !shown;
      el.querySelector(".label").textContent = LABELS[name][key] || el.dataset.label;
    }
    $("help").textContent = HELP[name] + (keys.includes("BACK") ? ""
      : " · on screen: hold " + (name === "encoder" ? "push" : "OK") + " for BACK");
    this.fit(); // the keys and the help take another room
  },

  status() {
    const g = this.gadget;
    const text = "screen " + g.screen.state() + (g.buzzer.sounding ? "  ♪" : "");
    if (text !== this.lastStatus) {
      this.lastStatus = text;
      $("status").textContent = text;
    }
  },

  say(text, bad = false) {
    const el = $("message");
    el.textContent = text;
    el.className = bad ? "bad" : "good";
  },

  storageProblem(error) {
    if (error) this.say(error, true);
  },

  confirm(question, action, then) {
    $("confirm-text").textContent = question;
    const yes = $("confirm-yes");
    yes.textContent = action;
    yes.onclick = () => { $("confirm").hidden = true; then(); };
    $("confirm").hidden = false;
  },

  exportFiles() {
    const g = this.gadget;
    const text = g.flash.exportText(g.firmware);
    const blob = new Blob([text], { type: "application/json" });
    const a = document.createElement("a");
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
    a.href = URL.createObjectURL(blob);
    a.download = "tablemate-" + stamp + ".json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    this.say("Exported " + Object.keys(JSON.parse(text).files).length + " files as " + a.download + ".");
  },

  async importFile(input) {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    let files;
    try {
      if (file.size > 4 * 1024 * 1024) throw new Error("Not a Tablemate export: the file is larger than 4 MB.");
      files = parseImport(await file.text());
    } catch (err) {
      this.say("Nothing imported. " + err.message, true);
      return;
    }
    const names = Object.keys(files).map((n) => n.slice(5)).join(", ") || "no files";
    this.confirm("Replace the device's files with the " + Object.keys(files).length + " in " +
      file.name + " (" + names + ")? The device restarts.", "Replace", () => {
      const g = this.gadget;
      g.stop();
      try {
        g.flash.replaceStored(files);
      } catch (err) {
        this.say("Nothing imported. " + err.message, true);
        g.running = true;
        g.loop();
        return;
      }
      location.reload();
    });
  },
};

// One gadget per browser: a second tab waits until the first one is closed (two would write
// over each other's files).
async function start() {
  const gadget = new Gadget();
  window.tablemate = gadget; // for tests, the benchmark and the curious
  ui.init(gadget);
  ui.layout("six");
  const run = async () => {
    $("wait").hidden = true;
    try {
      await gadget.boot();
      document.body.classList.add("ready");
    } catch (err) {
      $("boot-error").hidden = false;
      $("boot-error").textContent = "Tablemate could not start: " + err.message;
      throw err;
    }
  };
  if (navigator.locks) {
    const waiting = setTimeout(() => { $("wait").hidden = false; }, 1500);
    navigator.locks.request("tablemate-device " + SCOPE, () => {
      clearTimeout(waiting);
      return run().then(() => new Promise(() => {})); // held while this page lives
    });
  } else {
    await run();
  }
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch((err) => console.warn("offline copy unavailable:", err.message));
  }
}

start();
