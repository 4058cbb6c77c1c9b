// The stream-json schema (docs/stream-json.schema.json) as a validator, and a reader of the stream written
// the way a program written for Claude Code's stream-json reads it (its field names, nothing of navi's).
import { Ajv2020 } from "ajv/dist/2020.js";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";

/** Validates lines against the schema; `check` returns the errors of one line ("" when it is valid). */
export async function streamValidator(): Promise<{ check(line: unknown): string }> {
  const schema = JSON.parse(await Deno.readTextFile(join(ROOT, "docs/stream-json.schema.json")));
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  // The one-of over all types names every type's complaints; the definition of the line's own type says more.
  const own = (line: Record<string, unknown>) => {
    const name = line.type === "system" ? String(line.subtype) : String(line.type);
    return schema.$defs[name] ? ajv.getSchema(`${schema.$id}#/$defs/${name}`) : undefined;
  };
  return {
    check(line) {
      if (validate(line)) return "";
      const def = line && typeof line === "object" ? own(line as Record<string, unknown>) : undefined;
      if (def && !def(line)) return ajv.errorsText(def.errors, { separator: "; " });
      return ajv.errorsText(validate.errors, { separator: "; " });
    },
  };
}

/** Parse every stdout line as JSON and validate it; throws naming the first line that fails. */
export async function validLines(stdout: string): Promise<Record<string, unknown>[]> {
  const v = await streamValidator();
  const text = stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout;
  return text.split("\n").map((line, i) => {
    const value = JSON.parse(line);
    const errors = v.check(value);
    if (errors) throw new Error(`line ${i + 1} does not match the schema: ${errors}\n${line}`);
    return value;
  });
}

/** What a Claude Code stream-json consumer gets out of a run. */
export interface ClaudeRun {
  sessionId: string;
  model: string;
  tools: string[];
  texts: string[];
  toolUses: { id: string; name: string; input: Record<string, unknown> }[];
  toolResults: { toolUseId: string; isError: boolean; content: string }[];
  results: {
    subtype: string;
    isError: boolean;
    result: string;
    numTurns: number;
    durationMs: number;
    inputTokens: number;
    outputTokens: number;
    cost: number | null;
  }[];
  deltas: string;
}

/**
 * Read a stream as a program written for Claude Code's stream-json would: by Claude's types and field names
 * only, other types ignored; a known type missing a field it needs throws.
 */
export function readAsClaude(stdout: string): ClaudeRun {
  const run: ClaudeRun = {
    sessionId: "",
    model: "",
    tools: [],
    texts: [],
    toolUses: [],
    toolResults: [],
    results: [],
    deltas: "",
  };
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined || v === null && what !== "total_cost_usd") throw new Error(`missing ${what}`);
    return v;
  };
  for (const line of stdout.split("\n").filter(Boolean)) {
    // deno-lint-ignore no-explicit-any
    const m: any = JSON.parse(line);
    if (m.type === "system" && m.subtype === "init") {
      run.sessionId = need(m.session_id, "session_id");
      run.model = need(m.model, "model");
      run.tools = need(m.tools, "tools");
    } else if (m.type === "assistant") {
      for (const block of need(m.message?.content, "message.content")) {
        if (block.type === "text") run.texts.push(block.text);
        if (block.type === "tool_use") {
          run.toolUses.push({ id: block.id, name: block.name, input: block.input });
        }
      }
    } else if (m.type === "user") {
      for (const block of need(m.message?.content, "message.content")) {
        if (block.type === "tool_result") {
          run.toolResults.push({
            toolUseId: block.tool_use_id,
            isError: block.is_error,
            content: block.content,
          });
        }
      }
    } else if (m.type === "stream_event") {
      if (m.event.type === "content_block_delta" && m.event.delta.type === "text_delta") {
        run.deltas += m.event.delta.text;
      }
    } else if (m.type === "result") {
      run.results.push({
        subtype: need(m.subtype, "subtype"),
        isError: need(m.is_error, "is_error"),
        result: need(m.result, "result"),
        numTurns: need(m.num_turns, "num_turns"),
        durationMs: need(m.duration_ms, "duration_ms"),
        inputTokens: need(m.usage?.input_tokens, "usage.input_tokens"),
        outputTokens: need(m.usage?.output_tokens, "usage.output_tokens"),
        cost: need(m.total_cost_usd, "total_cost_usd"),
      });
      if (m.session_id !== run.sessionId) throw new Error("the result names another session");
    }
  }
  return run;
}
