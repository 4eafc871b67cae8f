// The gadget's flash: the VM's /data folder, kept in the browser's localStorage.
//
// The firmware writes its files (settings, the game's journal, the history) in /data of the VM's
// in-memory filesystem. The page watches the filesystem calls that change something there, and
// after each loop pass that did, writes the changed files through to localStorage, which a
// browser keeps across reloads and restarts (synchronously: a file is kept before the next pass
// runs, as the Pico's flash holds a journal line before the next key is read). At boot the
// files are put back before the firmware starts, so a page closed or reloaded mid-game offers
// "Resume game?" with what a power cut would have left.
//
// One key per file: "tablemate.flash:/data/game.jnl" -> the bytes as a Latin-1 string (files
// may hold any byte: a journal voids a torn line with NULs). "tablemate.flash.dirs" lists the
// folders. Export and import carry the same files as one JSON file with base64 contents. A page
// served from a folder other than the site's root puts the folder in its keys
// ("tablemate.flash@/repo/:..."): two gadgets on one site (one GitHub user's pages share one
// origin) keep two flashes.

const ROOT = "/data";
export const FORMAT = "tablemate-flash";
export const FORMAT_VERSION = 1;
const MAX_IMPORT = 4 * 1024 * 1024; // bytes of JSON text
const NAME = /^data(\/[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}){1,3}$/;

export function bytesToLatin1(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  }
  return s;
}

export function latin1ToBytes(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xFF;
  return out;
}

function sameBytes(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function under(path) {
  return typeof path === "string" && (path === ROOT || path.startsWith(ROOT + "/"));
}

export class Flash {
  constructor(FS, storage = globalThis.localStorage, scope = "/") {
    this.FS = FS;
    this.storage = storage;
    const name = scope === "/" ? "tablemate.flash" : "tablemate.flash@" + scope;
    this.prefix = name + ":";
    this.dirsKey = name + ".dirs";
    this.kept = new Map(); // path -> bytes as stored
    this.keptDirs = [];
    this.dirty = false;
    this.writes = 0; // files written through so far
    this.error = null; // why the last write-through failed (the storage is full)
  }

  // Put the stored files into the VM's filesystem (before the firmware boots).
  restore() {
    const FS = this.FS;
    let dirs = [];
    try { dirs = JSON.parse(this.storage.getItem(this.dirsKey) || "[]"); } catch { dirs = []; }
    for (const dir of dirs) if (under(dir)) FS.mkdirTree(dir);
    this.keptDirs = dirs.filter(under);
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (!key.startsWith(this.prefix)) continue;
      const path = key.slice(this.prefix.length);
      if (!under(path) || path === ROOT) continue;
      const bytes = latin1ToBytes(this.storage.getItem(key));
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, bytes);
      this.kept.set(path, bytes);
    }
  }

  // Mark the flash dirty on every filesystem call that changes something under /data.
  watch() {
    const FS = this.FS;
    const flash = this;
    const WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000; // O_WRONLY O_RDWR O_CREAT O_TRUNC O_APPEND
    const wrap = (name, test) => {
      const orig = FS[name];
      FS[name] = function (...args) {
        if (!flash.dirty && test(...args)) flash.dirty = true;
        return orig.apply(this, args);
      };
    };
    const pathOf = (s) => (typeof s === "string" ? s : s && s.path);
    wrap("write", (stream) => under(pathOf(stream)));
    wrap("open", (path, flags) => under(pathOf(path)) && typeof flags === "number" && (flags & WRITE_FLAGS) !== 0);
    wrap("rename", (a, b) => under(a) || under(b));
    for (const name of ["unlink", "rmdir", "mkdir", "truncate"]) wrap(name, (p) => under(pathOf(p)));
    wrap("ftruncate", () => true);
  }

  // After a pass: write through what changed (nothing when the pass wrote nothing).
  sync() {
    if (!this.dirty) return 0;
    this.dirty = false;
    const files = new Map();
    const dirs = [];
    this.walk(ROOT, files, dirs);
    let n = 0;
    try {
      for (const [path, bytes] of files) {
        if (sameBytes(this.kept.get(path), bytes)) continue;
        this.storage.setItem(this.prefix + path, bytesToLatin1(bytes));
        this.kept.set(path, bytes);
        n++;
      }
      for (const path of [...this.kept.keys()]) {
        if (files.has(path)) continue;
        this.storage.removeItem(this.prefix + path);
        this.kept.delete(path);
        n++;
      }
      if (JSON.stringify(dirs) !== JSON.stringify(this.keptDirs)) {
        this.storage.setItem(this.dirsKey, JSON.stringify(dirs));
        this.keptDirs = dirs;
      }
      this.error = null;
    } catch (err) {
      this.error = "The browser's storage is full: " + err.message;
      this.dirty = true; // try again after the next pass
    }
    this.writes += n;
    return n;
  }

  walk(dir, files, dirs) {
    const FS = this.FS;
    let names;
    try { names = FS.readdir(dir); } catch { return; }
    dirs.push(dir);
    for (const name of names.sort()) {
      if (name === "." || name === "..") continue;
      const path = dir + "/" + name;
      const st = FS.stat(path);
      if (FS.isDir(st.mode)) this.walk(path, files, dirs);
      else if (FS.isFile(st.mode)) files.set(path, FS.readFile(path));
    }
  }

  // Every file under /data as {"data/name": bytes}.
  files() {
    const files = new Map();
    this.walk(ROOT, files, []);
    const out = {};
    for (const [path, bytes] of files) out[path.slice(1)] = bytes;
    return out;
  }

  // The export: one JSON text with every /data file, base64.
  exportText(firmware) {
    const files = {};
    for (const [name, bytes] of Object.entries(this.files())) files[name] = btoa(bytesToLatin1(bytes));
    return JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, firmware,
      exported: new Date().toISOString(), files }, null, 1);
  }

  // Replace every stored file with ``files`` ({"data/name": bytes}, from parseImport). The
  // running firmware must be stopped first; the page then reloads (a power cycle).
  replaceStored(files) {
    const old = [];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (key.startsWith(this.prefix) || key === this.dirsKey) old.push([key, this.storage.getItem(key)]);
    }
    const dirs = new Set([ROOT]);
    try {
      for (const [key] of old) this.storage.removeItem(key);
      for (const [name, bytes] of Object.entries(files)) {
        const parts = name.split("/");
        for (let i = 2; i < parts.length; i++) dirs.add("/" + parts.slice(0, i).join("/"));
        this.storage.setItem(this.prefix + "/" + name, bytesToLatin1(bytes));
      }
      this.storage.setItem(this.dirsKey, JSON.stringify([...dirs].sort()));
    } catch (err) { // storage full: put back what was there
      for (let i = this.storage.length - 1; i >= 0; i--) {
        const key = this.storage.key(i);
        if (key.startsWith(this.prefix) || key === this.dirsKey) this.storage.removeItem(key);
      }
      for (const [key, value] of old) this.storage.setItem(key, value);
      throw new Error("The browser's storage cannot hold these files (" + err.message + ")");
    }
  }

  // Forget every stored file (the next boot finds an empty flash).
  erase() {
    for (let i = this.storage.length - 1; i >= 0; i--) {
      const key = this.storage.key(i);
      if (key.startsWith(this.prefix) || key === this.dirsKey) this.storage.removeItem(key);
    }
  }
}

// Check an export file: {"data/name": bytes}, or an Error whose message says what is wrong.
export function parseImport(text) {
  if (typeof text !== "string" || text.length > MAX_IMPORT) {
    throw new Error("Not a Tablemate export: the file is larger than 4 MB.");
  }
  let doc;
  try { doc = JSON.parse(text); } catch {
    throw new Error("Not a Tablemate export: the file is not JSON.");
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc) || doc.format !== FORMAT) {
    throw new Error("Not a Tablemate export: it has no \"format\": \"" + FORMAT + "\".");
  }
  if (doc.version !== FORMAT_VERSION) {
    throw new Error("This export is version " + JSON.stringify(doc.version) + "; this page reads version " + FORMAT_VERSION + ".");
  }
  const files = doc.files;
  if (!files || typeof files !== "object" || Array.isArray(files)) {
    throw new Error("The export has no \"files\".");
  }
  const out = {};
  for (const [name, value] of Object.entries(files)) {
    if (!NAME.test(name) || name.split("/").some((p) => p === "." || p === "..")) {
      throw new Error("The export names a file outside the device's data folder: " + JSON.stringify(name.slice(0, 80)));
    }
    if (typeof value !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
      throw new Error("The contents of " + name + " are not base64.");
    }
    let bytes;
    try { bytes = latin1ToBytes(atob(value)); } catch {
      throw new Error("The contents of " + name + " are not base64.");
    }
    out[name] = bytes;
  }
  // A directory and a file of the same name cannot both exist.
  for (const name of Object.keys(out)) {
    if (Object.keys(out).some((other) => other.startsWith(name + "/"))) {
      throw new Error("The export has " + name + " both as a file and as a folder.");
    }
  }
  return out;
}
