#!/usr/bin/env bash
# Lighthouse's default mobile run (simulated throttling) on a release build served with gzip:
#   bash benches/page/lighthouse.sh [DIST] [REPORT.json]
# Installs npm lighthouse@12 into .tools/lighthouse on first use; uses Debian's Chromium.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="$(cd "${1:-$ROOT/dist}" && pwd)"
REPORT="${2:-$ROOT/tests/e2e/results/lighthouse.json}"
TOOLS="$ROOT/.tools/lighthouse"
if [ ! -x "$TOOLS/node_modules/.bin/lighthouse" ]; then
  npm install --silent --no-audit --no-fund --prefix "$TOOLS" lighthouse@12 >/dev/null
fi
mkdir -p "$(dirname "$REPORT")"
PORT=$((8100 + RANDOM % 800))
node "$ROOT/benches/page/gzip-server.mjs" "$DIST" "$PORT" &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 0.5
CHROME_PATH="${CHROMIUM:-/usr/bin/chromium}" "$TOOLS/node_modules/.bin/lighthouse" \
  "http://127.0.0.1:$PORT/" --quiet --output=json --output-path="$REPORT" \
  --chrome-flags="--headless=new --no-sandbox"
node -e '
const r = require(process.argv[1]);
const m = r.audits.metrics.details.items[0];
const score = (k) => Math.round(r.categories[k].score * 100);
console.log(JSON.stringify({
  performance: score("performance"), accessibility: score("accessibility"),
  bestPractices: score("best-practices"), seo: score("seo"),
  fcpMs: Math.round(m.firstContentfulPaint), lcpMs: Math.round(m.largestContentfulPaint),
  tbtMs: Math.round(m.totalBlockingTime), cls: +m.cumulativeLayoutShift.toFixed(3),
  speedIndexMs: Math.round(m.speedIndex),
  transferredKiB: Math.round(r.audits["total-byte-weight"].numericValue / 1024),
}, null, 1));' "$REPORT"
