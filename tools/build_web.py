#!/usr/bin/env python3
"""Build the web gadget (web/) into a folder any static host can serve, and serve it.

    python3 tools/build_web.py                   build into build/web/
    python3 tools/build_web.py --out DIR         build into DIR (emptied first)
    python3 tools/build_web.py --serve [PORT]    build, then serve it on http://127.0.0.1:PORT/
                                                 (8000 by default; --bind ADDR to listen elsewhere)

The page runs the very files of firmware/ under the pinned MicroPython WebAssembly VM: nothing of
a game or a screen is written twice. The build copies, so that every asset is local:
- web/*.html, *.js, *.css and the web app manifest            -> OUT/
- the VM (micropython.mjs and .wasm, from tools/mpvm/node_modules, installed by
  `npm ci --prefix tools/mpvm`; `make web` does it)           -> OUT/vm/
- the gadget's filesystem, as one file the page loads in one request: firmware/ as it goes on
  the Pico, and the page's stand-ins for the board (web/py: machine.py, webgadget.py) in
  /lib                                                          -> OUT/fs.json
and writes OUT/files.json (the build id and every asset, which the service worker caches for
offline use), the build id into sw.js, and the home-screen icons.
Only the standard library is used (Python 3.9+).
"""

import argparse
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "web")
FIRMWARE = os.path.join(ROOT, "firmware")
VM_PACKAGE = os.path.join(ROOT, "tools", "mpvm", "node_modules", "@micropython",
                          "micropython-webassembly-pyscript")
VM_FILES = ("micropython.mjs", "micropython.wasm")
DEFAULT_OUT = os.path.join(ROOT, "build", "web")
PAGE_FILES = (".html", ".js", ".css", ".webmanifest")

# Types for the files of the build, whatever the machine's mime.types says (a module script
# must come as JavaScript, and the VM compiles its .wasm while it streams only as application/wasm).
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".png": "image/png",
    ".py": "text/plain; charset=utf-8",
    "": "application/octet-stream",
}

MANIFEST = {
    "name": "Tablemate",
    "short_name": "Tablemate",
    "description": "The card-game table companion, running its MicroPython firmware",
    "start_url": "./",
    "scope": "./",
    "display": "standalone",
    "orientation": "portrait",
    "background_color": "#16181d",
    "theme_color": "#16181d",
    "icons": [
        {"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ],
}


class BuildError(Exception):
    pass


def _skip(name):
    return name.startswith(".") or name == "__pycache__" or name.endswith(".pyc")


def _gather(src, prefix, files):
    """Add every file under ``src`` (no caches, no dot files) to ``files`` as prefix+path -> text."""
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if not _skip(d))
        for name in sorted(filenames):
            if _skip(name):
                continue
            path = os.path.join(dirpath, name)
            rel = prefix + os.path.relpath(path, src).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            try:
                files[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                raise BuildError("%s is not UTF-8 text: fs.json carries text files only" % path)


def firmware_version():
    with open(os.path.join(FIRMWARE, "tablemate", "__init__.py")) as f:
        found = re.search(r'^VERSION = "([^"]+)"', f.read(), re.M)
    return found.group(1) if found else ""


# -- icons: the gadget's screen showing a big "7", drawn as pixels, written as PNG ---------------
_GLYPH = (  # 5x7: the 7 on the icon's OLED
    "11111",
    "00001",
    "00010",
    "00100",
    "01000",
    "01000",
    "01000",
)


def _icon_pixels(n):
    """n x n RGBA rows: a dark body, the black screen, a lit 7 on it (scaled by nearest)."""
    body, glass, lit = (0x16, 0x18, 0x1D), (0x0B, 0x0D, 0x12), (0x9F, 0xD8, 0xFF)
    grid = 16  # the icon is drawn on a 16x16 grid
    rows = []
    for y in range(n):
        gy = y * grid // n
        row = bytearray()
        for x in range(n):
            gx = x * grid // n
            colour = body
            if 2 <= gx <= 13 and 3 <= gy <= 12:
                colour = glass
                gx0, gy0 = gx - 5, gy - 4
                # the glyph is 5x7 on the grid; centre it on the screen (x 5..9, y 4..10)
                if 0 <= gx0 < 5 and 0 <= gy0 < 7 and _GLYPH[gy0][gx0] == "1":
                    colour = lit
            row += bytes(colour) + b"\xff"
        rows.append(bytes(row))
    return rows


def _png(rows, n):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def build(out=DEFAULT_OUT):
    """Build the page into ``out``; returns the contents of files.json."""
    missing = [f for f in VM_FILES if not os.path.exists(os.path.join(VM_PACKAGE, f))]
    if missing:
        raise BuildError("the MicroPython VM is missing from tools/mpvm/node_modules: run "
                         "`npm ci --prefix tools/mpvm` in the repository root (make web does)")
    out = os.path.abspath(out)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)

    assets = []
    for name in sorted(os.listdir(WEB)):
        if name.endswith(PAGE_FILES) and not _skip(name):
            shutil.copyfile(os.path.join(WEB, name), os.path.join(out, name))
            assets.append(name)
    os.makedirs(os.path.join(out, "vm"))
    for name in VM_FILES:
        shutil.copyfile(os.path.join(VM_PACKAGE, name), os.path.join(out, "vm", name))
        assets.append("vm/" + name)
    for size in (192, 512):
        with open(os.path.join(out, "icon-%d.png" % size), "wb") as f:
            f.write(_png(_icon_pixels(size), size))
        assets.append("icon-%d.png" % size)
    with open(os.path.join(out, "manifest.webmanifest"), "w") as f:
        json.dump(MANIFEST, f, indent=1)
    assets.append("manifest.webmanifest")

    fs = {}
    _gather(FIRMWARE, "", fs)
    _gather(os.path.join(WEB, "py"), "lib/", fs)
    pack = {"firmware": firmware_version(), "files": dict(sorted(fs.items()))}
    with open(os.path.join(out, "fs.json"), "w") as f:
        json.dump(pack, f, separators=(",", ":"))
    assets.append("fs.json")

    digest = hashlib.sha256()
    for rel in sorted(assets):
        digest.update(rel.encode() + b"\x00")
        with open(os.path.join(out, rel), "rb") as f:
            digest.update(f.read())
    build_id = digest.hexdigest()[:16]
    sw = os.path.join(out, "sw.js")
    if os.path.exists(sw):
        with open(sw) as f:
            text = f.read()
        with open(sw, "w") as f:
            f.write(text.replace("__BUILD__", build_id))
    files = {
        "version": build_id,
        "firmware": pack["firmware"],
        "fs": sorted(fs),
        # "./" is the page as a folder's index: how it is opened, and what works offline.
        "assets": ["./"] + sorted(a for a in assets if a != "sw.js") + ["files.json"],
    }
    with open(os.path.join(out, "files.json"), "w") as f:
        json.dump(files, f, indent=1)
    with open(os.path.join(out, ".nojekyll"), "w"):
        pass  # GitHub Pages: serve the folder as it is
    return files


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the build with the right types and no stale copies while you work on it."""

    extensions_map = TYPES

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if os.environ.get("TABLEMATE_WEB_QUIET") is None:
            super().log_message(format, *args)


def server(directory, bind="127.0.0.1", port=0):
    """A threading HTTP server for ``directory`` (not started); port 0 picks a free one."""
    handler = functools.partial(Handler, directory=directory)
    return http.server.ThreadingHTTPServer((bind, port), handler)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=DEFAULT_OUT, help="the build folder (default build/web)")
    parser.add_argument("--serve", nargs="?", const=8000, type=int, metavar="PORT",
                        help="serve the build on this port (8000) once it is built")
    parser.add_argument("--bind", default="127.0.0.1",
                        help="the address to listen on (127.0.0.1; 0.0.0.0 for a phone on your network)")
    args = parser.parse_args(argv)
    try:
        files = build(args.out)
    except BuildError as err:
        print("build_web: " + str(err), file=sys.stderr)
        return 2
    print("Built %s: firmware %s, %d files on the gadget, build %s"
          % (os.path.relpath(args.out), files["firmware"], len(files["fs"]), files["version"]))
    if args.serve is None:
        return 0
    httpd = server(args.out, args.bind, args.serve)
    host, port = httpd.server_address[:2]
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print("Serving Tablemate on http://%s:%d/ (Ctrl-C stops)" % (shown, port), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
