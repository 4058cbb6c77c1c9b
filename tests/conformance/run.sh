#!/usr/bin/env bash
# Runs the MCP conformance client suite (`core`) against navi's MCP layer, one scenario at a time
# (sse-retry is timing-sensitive on 2 cores). Confined to loopback with `unshare -n` when possible.
# Prints "conformance: N passed, M failed". Every client scenario of the 2025-11-25 spec is run (the `core`
# list), plus the 2025-03-26 back-compat and draft auth scenarios; not run: the `extension` scenarios
# (client-credentials and cross-app grants, which navi does not offer).
set -uo pipefail
cd "$(dirname "$0")/../.."
PKG=npm:@modelcontextprotocol/conformance@0.1.16
SCENARIOS=(initialize tools_call elicitation-sep1034-client-defaults sse-retry
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/pre-registration
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported)

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
    --scenario "$s" 2>&1); then
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
