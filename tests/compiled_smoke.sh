#!/usr/bin/env bash
# Smoke test of a navi binary: `tests/compiled_smoke.sh dist/navi`.
# Runs --version, tools --json with a plugin directory, plugins, mcp list with an SDK stdio server, and -p
# against a scripted LLM server on loopback. Any command that prints navi's CLI works as <binary>.
set -uo pipefail
BIN=${1:?usage: compiled_smoke.sh <navi binary>}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"; [ -n "${LLM_PID:-}" ] && kill "$LLM_PID" 2>/dev/null' EXIT
export NAVI_HOME=$HOME_DIR NO_COLOR=1
fail=0
check() { if eval "$2"; then echo "ok      $1"; else echo "FAILED  $1"; fail=1; fi; }

check "--version" '[[ "$($BIN --version)" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]'

mkdir -p "$HOME_DIR/plugins"
cp "$ROOT/plugins/examples/word_count.ts" "$HOME_DIR/plugins/"
check "tools --json offers the plugin tool" '$BIN tools --json | grep -q "\"name\": \"word_count\""'
check "plugins lists it as loaded" '$BIN plugins | grep -Eq "word_count\.ts +loaded"'
check "plugins init writes a template" '$BIN plugins init smoke_tool >/dev/null && [ -f "$HOME_DIR/plugins/navi.d.ts" ]'

LLM_URL_FILE=$(mktemp)
deno run -A "$ROOT/tests/support/llm_cli.ts" >"$LLM_URL_FILE" &
LLM_PID=$!
for _ in $(seq 50); do [ -s "$LLM_URL_FILE" ] && break; sleep 0.1; done
cat >"$HOME_DIR/config.json" <<JSON
{ "providers": { "smoke": { "base_url": "$(cat "$LLM_URL_FILE")", "api_key": "smoke" } }, "model": "m",
  "mcp_servers": { "sdk": { "command": "deno", "args": ["run", "-A", "$ROOT/tests/support/mcp_test_server.ts"] } } }
JSON
check "mcp list shows the SDK server connected" '$BIN mcp list | grep -Eq "sdk +stdio +connected"'
check "-p calls the MCP echo tool and answers" '[ "$($BIN -p "say hi" --approval auto 2>/dev/null)" = "echo said: echo: smoke" ]'
rm -f "$LLM_URL_FILE"
exit $fail
