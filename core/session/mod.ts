/**
 * Sessions: the JSONL records of a conversation (messages, tool arrays, requests, audit, usage), listing and
 * resolving ids, and the lock that keeps one process per live session.
 * @module
 */
export { listSessions, newestSessionIn, resolveSessionId, type SessionSummary } from "./list.ts";
export type {
  AuditRecord,
  CheckpointRecord,
  DeferredState,
  HookRecord,
  RequestRecord,
  RewriteRecord,
  SessionMeta,
  SubagentRecord,
} from "./records.ts";
export {
  type LoadedSession,
  readSession,
  Session,
  SessionError,
  sessionInUse,
  type SessionOptions,
  type SessionView,
} from "./session.ts";
