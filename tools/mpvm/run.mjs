#!/usr/bin/env node
// Run Tablemate code under the real MicroPython VM (the WebAssembly port) in Node.
//
//   node tools/mpvm/run.mjs [options] --code FILE...  run Python files ("-" reads stdin), each
//                                                     in its own runPython() call, same globals
//   node tools/mpvm/run.mjs [options] --tests DIR     run every test_*() in DIR/test_*.py
//
// Options:
//   --mount VMPATH=HOSTPATH   copy a host file or directory into the VM (repeatable);
//                             firmware/ is always copied to /lib, so `import tablemate` works
//   --only FILE.py[::TEST]    with --tests: run only this file or test (repeatable)
//   --heap BYTES              initial MicroPython heap (it grows on demand in this port)
//   --error-json FILE         with --code: write {"type", "traceback"} there on a Python exception
//
// --tests copies DIR to /tests, puts /tests on sys.path and calls each test in its own
// runPython() call, with a gc.collect() call in between (gc is deferred inside one call).
// A test that raises an exception of a class named Skip (tests/logic/support.py: skip(reason))
// does not apply on this VM: it is reported as skipped with its reason, neither passed nor
// failed. It prints one JSON line per test ({file, test, ok, skipped, ms, error, stdout};
// skipped is the reason or null) and a summary line "N passed, N failed, N skipped".
// Exit: 0 ok, 1 Python error or a failed test (or nothing run), 2 bad usage or a broken runner.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TEST_DIR_VM = "/tests";

function usage(msg) {
  process.stderr.write(`run.mjs: ${msg}\n(see the header of tools/mpvm/run.mjs)\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { mounts: [["/lib", path.join(ROOT, "firmware")]], code: [], only: [], heap: 1024 * 1024 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} needs a value`));
    if (arg === "--code") opts.code.push(value());
    else if (arg === "--tests") opts.tests = value();
    else if (arg === "--only") opts.only.push(value());
    else if (arg === "--heap") opts.heap = parseInt(value(), 10);
    else if (arg === "--error-json") opts.errorJson = value();
    else if (arg === "--mount") {
      const spec = value();
      const eq = spec.indexOf("=");
      if (eq <= 0) usage(`--mount wants VMPATH=HOSTPATH, got ${spec}`);
      opts.mounts.push([spec.slice(0, eq), spec.slice(eq + 1)]);
    } else usage(`unknown argument ${arg}`);
  }
  if (!opts.code.length === !opts.tests) usage("give either --code FILE... or --tests DIR");
  if (opts.tests) opts.mounts.push([TEST_DIR_VM, opts.tests]);
  return opts;
}

// Copy a host file or directory tree into the emscripten filesystem (skipping caches).
function copyIn(FS, vmPath, hostPath) {
  const stat = fs.statSync(hostPath);
  if (stat.isDirectory()) {
    FS.mkdirTree(vmPath);
    for (const name of fs.readdirSync(hostPath).sort()) {
      if (name === "__pycache__" || name.startsWith(".") || name.endsWith(".pyc")) continue;
      copyIn(FS, path.posix.join(vmPath, name), path.join(hostPath, name));
    }
  } else {
    FS.mkdirTree(path.posix.dirname(vmPath));
    FS.writeFile(vmPath, fs.readFileSync(hostPath));
  }
}

// The VM writes byte by byte; `sink` decides where finished text goes.
let sink = (text) => process.stdout.write(text);
let pending = [];
const decoder = new TextDecoder();
function onByte(bytes) {
  for (const b of bytes) {
    pending.push(b);
    if (b === 10) flush();
  }
}
function flush() {
  if (pending.length) sink(decoder.decode(new Uint8Array(pending)));
  pending = [];
}

function isCleanExit(err) {
  return err.type === "SystemExit" && /SystemExit(: 0)?\s*$/.test(err.message);
}

// Separate calls let gc.collect() in one take effect before the next reads gc.mem_alloc().
function runCode(mp, opts) {
  try {
    for (const file of opts.code) mp.runPython(fs.readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (err) {
    if (err.name !== "PythonError") throw err;
    flush();
    if (isCleanExit(err)) return 0;
    process.stderr.write(err.message);
    if (opts.errorJson) {
      fs.writeFileSync(opts.errorJson, JSON.stringify({ type: err.type, traceback: err.message }));
    }
    return 1;
  }
  flush();
  return 0;
}

// Run `code` and return null, or the traceback text of the Python exception it raised.
function tryPython(mp, code) {
  try {
    mp.runPython(code);
    return null;
  } catch (err) {
    if (err.name !== "PythonError") throw err;
    return err.message;
  }
}

// Test names in definition order: what the module defines, ordered as in the source.
function testNames(mp, moduleName, source) {
  const order = [...source.matchAll(/^def\s+(test_\w+)\s*\(/gm)].map((m) => m[1]);
  mp.runPython(
    `_m = __import__(${JSON.stringify(moduleName)})\n` +
      `_names = " ".join(n for n in dir(_m) if n.startswith("test_") and callable(getattr(_m, n)))\n` +
      `del _m`
  );
  const found = mp.globals.get("_names").split(" ").filter(Boolean);
  const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
  return found.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
}

// Call one test; a Skip exception leaves its reason in the global _skipped (else None).
function testCall(moduleName, test) {
  return [
    "_skipped = None",
    "try:",
    `    ${moduleName}.${test}()`,
    "except Exception as _e:",
    '    if type(_e).__name__ != "Skip":',
    "        raise",
    '    _skipped = str(_e.args[0]) if _e.args else ""',
    "    _e = None",
  ].join("\n");
}

function skipReason(mp) {
  const reason = mp.globals.get("_skipped");
  return typeof reason === "string" ? reason : null;
}

function selected(only, file, test) {
  if (!only.length) return true;
  return only.some((o) => o === file || o === `${file}::${test}`);
}

function runTests(mp, opts) {
  const files = fs
    .readdirSync(opts.tests)
    .filter((f) => /^test_\w*\.py$/.test(f))
    .filter((f) => !opts.only.length || opts.only.some((o) => o.split("::")[0] === f))
    .sort();
  mp.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(TEST_DIR_VM)})`);
  let output = "";
  sink = (text) => (output += text);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of files) {
    const moduleName = file.slice(0, -3);
    const source = fs.readFileSync(path.join(opts.tests, file), "utf8");
    output = "";
    const importError = tryPython(mp, `import ${moduleName}`);
    let names;
    if (importError) {
      // Report the import failure under every test the file defines.
      names = [...source.matchAll(/^def\s+(test_\w+)\s*\(/gm)].map((m) => m[1]);
      if (!names.length) names = ["<import>"];
    } else {
      names = testNames(mp, moduleName, source);
    }
    for (const test of names.filter((t) => selected(opts.only, file, t))) {
      if (!importError) output = "";
      const start = performance.now();
      const error = importError || tryPython(mp, testCall(moduleName, test));
      const ms = Math.round((performance.now() - start) * 10) / 10;
      const skip = error ? null : skipReason(mp);
      flush();
      if (error) failed++;
      else if (skip !== null) skipped++;
      else passed++;
      console.log(JSON.stringify({ file, test, ok: !error, skipped: skip, ms, error, stdout: output }));
      tryPython(mp, "import gc\ngc.collect()");
    }
  }
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed || !(passed + skipped) ? 1 : 0;
}

const opts = parseArgs(process.argv.slice(2));
const mp = await loadMicroPython({ heapsize: opts.heap, stdout: onByte, stderr: onByte, linebuffer: false });
for (const [vmPath, hostPath] of opts.mounts) {
  if (!fs.existsSync(hostPath)) usage(`--mount: no such file or directory: ${hostPath}`);
  copyIn(mp.FS, vmPath, hostPath);
}
process.exitCode = opts.tests ? runTests(mp, opts) : runCode(mp, opts);
