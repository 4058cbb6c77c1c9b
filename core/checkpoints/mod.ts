/**
 * Checkpoints: what navi keeps so that a session's files can be put back as they were at the end of a turn,
 * also what `bash` changed, in any folder (no git needed). It owns the session's store
 * (`$NAVI_HOME/sessions/<id>/checkpoints/`: content-addressed objects, the log of changes, the index of the
 * workspace), the recorder the agent calls before each turn and around each call that may change files, the
 * file watch that tells which paths a command touched, and rewinds (planned, checked against what navi left,
 * written atomically, recorded as a checkpoint of their own).
 * @module
 */
export {
  type CallCapture,
  type CheckpointHooks,
  Checkpoints,
  type FileEffect,
  type RecorderOptions,
  type RecorderStats,
} from "./recorder.ts";
export {
  applyCode,
  planCode,
  readChanges,
  type RestoreFile,
  type RewindChoice,
  RewindError,
  type RewindRequest,
  type RewindResult,
  rewindSession,
  type TurnRow,
  turnRows,
} from "./rewind.ts";
export { copyStore, findDonor, pruneStores } from "./prune.ts";
export {
  type ChangeRecord,
  CheckpointStore,
  type FileVersion,
  hashBytes,
  type SkipReason,
  storeDir,
  StoreError,
  type StoreLog,
} from "./store.ts";
