#!/bin/bash
# Build the parts of the emulated Pico that are not kept here (see README.md).
#
# usage: ./rebuild.sh [RIG_DIR]      (RIG_DIR defaults to the directory of this script;
#                                     run it on a COPY of this folder, e.g. ${TMPDIR:-/tmp}/pico)
# Clones of these public GitHub repositories (a work tree or a bare git dir) are given as env vars:
#   MP_GIT        github:micropython/micropython        (must contain tag v1.28.0)
#   PICOSDK_GIT   github:raspberrypi/pico-sdk            (commit a1438dff = 2.2.0)
#   TINYUSB_GIT   github:hathach/tinyusb                 (commit aa0fc2e0)
#   MPLIB_GIT     github:micropython/micropython-lib     (commit 8380c7bb)
#   MBEDTLS_GIT   github:Mbed-TLS/mbedtls                (commit 107ea89d = 3.6.2)
#   PICOTOOL_GIT  github:raspberrypi/picotool            (tag 2.2.0)
#   RP2040JS_GIT  github:wokwi/rp2040js                  (demo/bootrom.ts -> emu/bootrom.mjs; RP2040JS_REF,
#                 default HEAD: the file is the B1 bootrom built from raspberrypi/pico-bootrom 00a4a191)
# e.g. MP_GIT=$HOME/src/micropython (git clone https://github.com/micropython/micropython) ... ./rebuild.sh "$TMPDIR/pico"
# Steps can be skipped with SKIP_APT=1 SKIP_FW=1 SKIP_NPM=1 SKIP_VENV=1 SKIP_BOOTROM=1.
# JOBS (default nproc) sets make parallelism.
set -euo pipefail
RIG=$(realpath "${1:-$(cd "$(dirname "$0")" && pwd)}")
JOBS=${JOBS:-$(nproc)}
MP_TAG=${MP_TAG:-v1.28.0}
PICOTOOL_REF=${PICOTOOL_REF:-2.2.0}
# Snapshots of big repos can lack some large blobs: check out everything except the missing files
# (sparse-checkout in non-cone mode with one "!/path" exclusion per missing blob).
checkout_skip_missing() {  # checkout_skip_missing REPO_DIR COMMIT
  local d=$1 c=$2 miss
  miss=$(git -C "$d" ls-tree -r "$c" | awk '$2=="blob"{print $3}' | git -C "$d" cat-file --batch-check 2>/dev/null \
         | awk '$2=="missing"{print $1}' | sort -u)
  if [ -n "$miss" ]; then
    git -C "$d" sparse-checkout init --no-cone >/dev/null 2>&1 || git -C "$d" config core.sparseCheckout true
    { echo '/*'; git -C "$d" ls-tree -r "$c" | awk -v m="$miss" 'BEGIN{n=split(m,a,"\n");for(i=1;i<=n;i++)M[a[i]]=1} $2=="blob"&&($3 in M){sub(/^[^\t]*\t/,"");print "!/"$0}'; } \
      > "$(git -C "$d" rev-parse --absolute-git-dir)/info/sparse-checkout"
    echo "  (skipping missing blobs in $d: $(echo "$miss" | wc -l))"
  fi
  git -C "$d" -c advice.detachedHead=false checkout -q -f "$c"
}
log() { echo "[rebuild $(date +%T)] $*"; }
need() { [ -n "${!1:-}" ] && git -C "${!1}" rev-parse --git-dir >/dev/null 2>&1 || { echo "set $1 to a git dir" >&2; exit 2; }; }

# ---- 0. toolchain ---------------------------------------------------------------------------
if [ -z "${SKIP_APT:-}" ]; then
  log "apt: arm toolchain + cmake"
  command -v arm-none-eabi-gcc >/dev/null && command -v cmake >/dev/null || {
    apt-get update -qq || true
    apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential
  }
fi

# ---- 1. bootrom -----------------------------------------------------------------------------
if [ -z "${SKIP_BOOTROM:-}" ]; then
  need RP2040JS_GIT
  log "bootrom: demo/bootrom.ts -> emu/bootrom.mjs"
  git -C "$RP2040JS_GIT" show "${RP2040JS_REF:-HEAD}":demo/bootrom.ts > "$RIG/emu/bootrom.ts.tmp"
  # the .ts file is `export const bootromB1 = new Uint32Array([...]);` (plain JS apart from types)
  sed -E 's/: *Uint32Array//g' "$RIG/emu/bootrom.ts.tmp" > "$RIG/emu/bootrom.mjs"
  rm -f "$RIG/emu/bootrom.ts.tmp"
  node -e "import('$RIG/emu/bootrom.mjs').then(m=>{if(!(m.bootromB1 instanceof Uint32Array)||m.bootromB1.length!==4096)throw new Error('bad bootrom '+m.bootromB1?.length);console.log('bootromB1 words',m.bootromB1.length)})"
fi

# ---- 2. npm + venv --------------------------------------------------------------------------
if [ -z "${SKIP_NPM:-}" ]; then
  log "npm install in emu/"
  (cd "$RIG/emu" && npm install --no-audit --no-fund)
fi
if [ -z "${SKIP_VENV:-}" ]; then
  log "venv with littlefs-python"
  [ -x "$RIG/venv/bin/python" ] || python3 -m venv "$RIG/venv"
  "$RIG/venv/bin/pip" install -q littlefs-python
fi

# ---- 3. MicroPython firmware ----------------------------------------------------------------
if [ -z "${SKIP_FW:-}" ]; then
  need MP_GIT; need PICOSDK_GIT; need TINYUSB_GIT; need MPLIB_GIT; need MBEDTLS_GIT; need PICOTOOL_GIT
  MP="$RIG/micropython"
  if [ ! -d "$MP/.git" ]; then
    log "clone micropython $MP_TAG"
    git clone -q --shared --no-checkout "$MP_GIT" "$MP"
  fi
  checkout_skip_missing "$MP" "$MP_TAG"
  sub() {  # sub PATH SRC_GIT : place lib submodule at the commit that $MP_TAG pins
    local p=$1 src=$2 c
    c=$(git -C "$MP" ls-tree "$MP_TAG" "$p" | awk '{print $3}')
    [ -n "$c" ] || { echo "no gitlink for $p" >&2; exit 1; }
    if [ ! -e "$MP/$p/.git" ]; then rm -rf "${MP:?}/$p"; git clone -q --shared --no-checkout "$src" "$MP/$p"; fi
    checkout_skip_missing "$MP/$p" "$c"
    log "  $p @ $c ($(git -C "$MP/$p" describe --tags --always 2>/dev/null))"
  }
  log "submodules"
  sub lib/pico-sdk "$PICOSDK_GIT"
  sub lib/tinyusb "$TINYUSB_GIT"
  sub lib/micropython-lib "$MPLIB_GIT"
  sub lib/mbedtls "$MBEDTLS_GIT"

  # picotool: build it host-side without libusb (only the uf2/elf tools are needed by the SDK)
  PT_SRC="$RIG/picotool-src"; PT_INST="$RIG/picotool-install"
  if [ ! -x "$PT_INST/bin/picotool" ]; then
    log "picotool $PICOTOOL_REF (no libusb)"
    [ -d "$PT_SRC/.git" ] || git clone -q --shared --no-checkout "$PICOTOOL_GIT" "$PT_SRC"
    checkout_skip_missing "$PT_SRC" "$PICOTOOL_REF"
    cmake -S "$PT_SRC" -B "$PT_SRC/build" -DPICO_SDK_PATH="$MP/lib/pico-sdk" -DPICOTOOL_NO_LIBUSB=1 \
          -DCMAKE_INSTALL_PREFIX="$PT_INST" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$PT_SRC/build" -j"$JOBS"
    cmake --install "$PT_SRC/build" >/dev/null
  fi
  PT_CFG=$(dirname "$(find "$PT_INST" -name picotoolConfig.cmake | head -1)")
  log "picotool_DIR=$PT_CFG"

  log "mpy-cross"
  make -s -C "$MP/mpy-cross" -j"$JOBS"
  log "rp2 RPI_PICO (this is the long step)"
  # (CMAKE_ARGS on the make command line would replace the port's own CMAKE_ARGS, so the prebuilt
  #  picotool is found through the environment: find_package() reads picotool_DIR / CMAKE_PREFIX_PATH)
  picotool_DIR="$PT_CFG" CMAKE_PREFIX_PATH="$PT_INST" \
    make -C "$MP/ports/rp2" BOARD=RPI_PICO -j"$JOBS" 2>&1 | tail -n 25
  ls -l "$MP/ports/rp2/build-RPI_PICO/firmware.uf2"
fi
log "done"
