#!/usr/bin/env bash
# Runs the MCP conformance client suite (`core`) against navi's MCP layer, one scenario at a time
# (sse-retry is timing-sensitive on 2 cores). Confined to loopback with `unshare -n` when possible.
# Prints "conformance: N passed, M failed" (scenarios; expected failures count as passed).
set -uo pipefail
cd "$(dirname "$0")/../.."
PKG=npm:@modelcontextprotocol/conformance@0.1.16
SCENARIOS=(initialize tools_call elicitation-sep1034-client-defaults sse-retry
  $(sed -n 's/^  - //p' tests/conformance/expected_failures.yml))

if [ "${NAVI_CONFORMANCE_INNER:-}" != 1 ]; then
  # Download what the suite needs first: inside the private network namespace there is no registry.
  deno cache --quiet "$PKG" tests/conformance/navi_client.ts || { echo "conformance: could not cache $PKG"; exit 1; }
  if unshare -n true 2>/dev/null; then
    exec unshare -n env NAVI_CONFORMANCE_INNER=1 bash -c 'ip link set lo up 2>/dev/null; exec bash "$0"' "$0"
  fi
fi
passed=0
failed=0
for s in "${SCENARIOS[@]}"; do
  if out=$(deno run -A "$PKG" client --command "deno run -A tests/conformance/navi_client.ts" \
    --scenario "$s" --expected-failures tests/conformance/expected_failures.yml 2>&1); then
    passed=$((passed + 1))
    echo "ok      $s"
  else
    failed=$((failed + 1))
    echo "FAILED  $s"
    echo "$out" | tail -n 20 | sed 's/^/        /'
  fi
done
echo "conformance: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
