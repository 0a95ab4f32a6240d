#!/usr/bin/env bash
# What the page loads, raw and gzip -9, from a release build: bash benches/page/bundle.sh [DIST]
set -euo pipefail
DIST="${1:-dist}"
total_raw=0
total_gz=0
printf '| file | raw bytes | gzip -9 bytes |\n| --- | ---: | ---: |\n'
# embed-example.html is a demo course page beside the app, not something the app loads.
for file in "$DIST"/*; do
  name="$(basename "$file")"
  [ "$name" = embed-example.html ] && continue
  raw=$(stat -c %s "$file")
  gz=$(gzip -9c "$file" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '| %s | %d | %d |\n' "$name" "$raw" "$gz"
done
printf '| **total** | %d | %d |\n' "$total_raw" "$total_gz"
