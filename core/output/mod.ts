/**
 * What navi writes: secrets redacted (also across streamed pieces), control sequences from untrusted text
 * neutralised, and the sinks every byte for a terminal or a pipe passes.
 * @module
 */
export {
  escapeControls,
  type NotificationProtocol,
  notificationSequence,
  terminalSafe,
} from "./neutralise.ts";
export { type Env, ENV_REF, RedactingStream, type Redactor, resolveEnvRef, Secrets } from "./secrets.ts";
export { type Sink, streamSink } from "./sink.ts";
