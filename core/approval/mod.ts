/**
 * Who approves a tool call: the approval modes (ask, plan, auto), allow and deny rules, command rules matched
 * against the words the shell will run, and the questions put to the user.
 * @module
 */
export { type CommandPattern, matchesCommand, parseCommandPattern } from "./command_rule.ts";
export {
  type Answer,
  ApprovalPolicy,
  type ApprovalQuestion,
  type AskUser,
  commandSegments,
  type Decision,
  type Grant,
  parseRule,
  type Reply,
  type Rule,
  suggestPrefix,
  summarize,
} from "./policy.ts";
