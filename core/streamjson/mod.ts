/**
 * stream-json, navi's event stream for programs (`navi -p --output-format stream-json`): agent events as
 * JSON lines in Claude Code's shapes (`system`/`init` with `version`, `assistant`, `user`, `result`,
 * `stream_event` with partial messages) plus navi's own `navi_*` types, and the reading of
 * `--input-format stream-json` user messages. The schema of every line is docs/stream-json.schema.json.
 * @module
 */
export {
  claudeUsage,
  jsonLine,
  STREAM_JSON_VERSION,
  type StreamJsonOptions,
  StreamJsonWriter,
  type StreamLine,
  toolInput,
} from "./events.ts";
export { type InputMessage, lines, parseInputLine } from "./input.ts";
