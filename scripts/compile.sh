#!/usr/bin/env bash
# `deno task compile`: build dist/navi, one binary, by compiling dist/navi.js (`deno task bundle`: navi in one
# self-contained file; the plugin template, navi.d.ts and everything else are inside it, nothing is read from
# the repository or node_modules at run time).
# deno compile needs a `denort` runtime for the target. It downloads one on first use; where there is no
# network (as on the machines this project is built on), point DENORT_BIN at a local denort binary.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DENORT_BIN:-}" ]; then
  if ! deno compile --help >/dev/null 2>&1; then echo "deno compile is not available" >&2; exit 1; fi
  echo "note: DENORT_BIN is not set; deno compile will try to download its denort runtime (needs network once)" >&2
fi
deno run -A scripts/bundle.ts
if ! log=$(deno compile -A --unstable-worker-options --no-config --no-npm --output dist/navi dist/navi.js 2>&1); then
  echo "$log" | grep -v -e '^ *[0-9]*: ' -e 'Stack backtrace' -e '^\s*$' | tail -n 5 >&2
  if [ -z "${DENORT_BIN:-}" ]; then
    echo "navi: deno compile could not get its denort runtime. It downloads it once from the network;" >&2
    echo "      without network access, set DENORT_BIN to a local denort binary and run deno task compile again." >&2
  fi
  rm -f dist/navi.tmp-*
  exit 1
fi
ls -l dist/navi
