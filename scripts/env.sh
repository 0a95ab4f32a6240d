# Source this file: puts cargo's and the repository's npm tools first on PATH (wasm-opt from npm
# binaryen must win over any Debian binaryen).
_pe_lab_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
export PATH="$_pe_lab_root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
unset _pe_lab_root
