#!/usr/bin/env bash
# Smoke test of a navi artifact: `tests/compiled_smoke.sh <command>`, where <command> runs navi: the compiled
# binary (dist/navi) or a wrapper around `deno run ... navi.js` (see .ci/run). Runs --version, tools --json with
# a typed plugin, plugins, plugins init, mcp list with an SDK stdio server, -p calling the plugin tool and
# the MCP tool through a scripted LLM server on loopback, -p with stream-json output, and acp's initialize.
# The navi under test gets only a temporary NAVI_HOME; the test fixtures (the plugin file, the scripted LLM
# server, the MCP test server) come from this repository, run by `deno run` with the repository's deno.json.
set -uo pipefail
BIN=${1:?usage: compiled_smoke.sh <navi command>}
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
rm -f "$HOME_DIR/plugins/smoke_tool.ts"

# The fixtures use the real Deno cache, whatever DENO_DIR the navi under test runs with.
FIXTURE_DENO_DIR=$(NO_COLOR=1 deno info | sed -n 's/^DENO_DIR location: //p')
LLM_URL_FILE=$(mktemp)
deno run -A --config "$ROOT/deno.json" "$ROOT/tests/support/llm_cli.ts" >"$LLM_URL_FILE" &
LLM_PID=$!
for _ in $(seq 50); do [ -s "$LLM_URL_FILE" ] && break; sleep 0.1; done
cat >"$HOME_DIR/config.json" <<JSON
{ "providers": { "smoke": { "base_url": "$(cat "$LLM_URL_FILE")", "api_key": "smoke" } }, "model": "m",
  "mcp_servers": { "sdk": { "command": "deno",
    "args": ["run", "-A", "--config", "$ROOT/deno.json", "$ROOT/tests/support/mcp_test_server.ts"],
    "env": { "DENO_DIR": "$FIXTURE_DENO_DIR" } } } }
JSON
check "mcp list shows the SDK server connected" '$BIN mcp list | grep -Eq "sdk +stdio +connected"'
check "-p calls the plugin tool and answers" \
  '$BIN -p "use word_count {\"text\":\"one two three\"}" --approval auto 2>/dev/null | grep -q "^word_count said: .*\"words\":3"'
check "-p calls the MCP echo tool and answers" \
  '$BIN -p "use mcp__sdk__echo {\"message\":\"smoke\"}" --approval auto 2>/dev/null | grep -q "^mcp__sdk__echo said: .*echo: smoke"'
check "-p --output-format stream-json starts with init version 1 and ends with a result" \
  'out=$($BIN -p "use list_dir {\"path\":\".\"}" --output-format stream-json 2>/dev/null) &&
   head -n1 <<<"$out" | grep -q "\"subtype\":\"init\",\"version\":1" && tail -n1 <<<"$out" | grep -q "^{\"type\":\"result\""'

# navi acp answers initialize on stdout (read with a bounded wait, not a sleep) and ends when stdin closes.
acp_initializes() {
  local line=""
  coproc ACP { $BIN acp 2>/dev/null; }
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}' >&"${ACP[1]}"
  read -r -t 60 line <&"${ACP[0]}"
  eval "exec ${ACP[1]}>&-"
  wait "$ACP_PID"
  [[ "$line" == *'"id":1,"result":{"protocolVersion":1'* ]]
}
check "acp answers initialize" acp_initializes
rm -f "$LLM_URL_FILE"
exit $fail
