import {
  addUsage,
  emptyUsage,
  type ModelPrice,
  sessionCost,
  type SubagentRecord,
  totalUsage,
  type Usage,
} from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import { usageLine } from "./cache.ts";
import { table } from "../style.ts";

/** Dollars with enough digits for small sums: `$0.0042`, `$1.27`. */
export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** Session totals for JSON output: the token counts and, when config.json prices the models, `cost_usd`. */
export function usageJson(
  byModel: Record<string, Usage>,
  prices: Record<string, ModelPrice> | undefined,
): Usage & { cost_usd?: number; cost_partial?: boolean } {
  const cost = sessionCost(byModel, prices);
  return {
    ...totalUsage(byModel),
    ...(cost ? { cost_usd: Number(cost.usd.toFixed(6)) } : {}),
    ...(cost?.partial ? { cost_partial: true } : {}),
  };
}

/** The tokens of a session's subagent runs, by model. */
export function subagentsByModel(runs: readonly SubagentRecord[]): Record<string, Usage> {
  const byModel: Record<string, Usage> = {};
  for (const r of runs) addUsage(byModel[r.model] ??= emptyUsage(), r.usage);
  return byModel;
}

/** The subagents' session totals for JSON output (counted apart from the conversation's own). */
export function subagentUsage(
  runs: readonly SubagentRecord[],
  prices?: Record<string, ModelPrice>,
): Usage & { runs: number; cost_usd?: number; cost_partial?: boolean } {
  return { ...usageJson(subagentsByModel(runs), prices), runs: runs.length };
}

/** `/usage`: the conversation's table, then its subagents' (counted apart), when it ran any. */
export function sessionUsageText(
  session: { usage: Record<string, Usage>; subagents: readonly SubagentRecord[] },
  prices: Record<string, ModelPrice> | undefined,
): string {
  const own = usageText(session.usage, prices);
  if (!session.subagents.length) return own;
  const n = session.subagents.length;
  return `${own}

subagents (${n} run${n === 1 ? "" : "s"}, not in the table above):
${usageText(subagentsByModel(session.subagents), prices).replace(/\nno prices configured.*$/s, "")}`;
}

/**
 * The `/usage` text: one row per model, a total row, and the cost when prices are configured; cache writes and
 * reasoning tokens (part of the output) get their own columns once a provider reported any.
 */
export function usageText(
  byModel: Record<string, Usage>,
  prices: Record<string, ModelPrice> | undefined,
): string {
  const models = Object.keys(byModel);
  if (!models.length) return "no model requests in this session yet";
  const all = totalUsage(byModel);
  const written = all.cache_write_tokens > 0;
  const reasoned = all.reasoning_tokens > 0;
  const row = (name: string, u: Usage, cost?: { usd: number; partial: boolean }) => [
    name,
    String(u.prompt_tokens),
    String(u.cached_tokens),
    ...(written ? [String(u.cache_write_tokens)] : []),
    String(u.completion_tokens),
    ...(reasoned ? [String(u.reasoning_tokens)] : []),
    cost ? formatUsd(cost.usd) + (cost.partial ? " (some models unpriced)" : "") : "-",
  ];
  const rows = [[
    "MODEL",
    "PROMPT",
    "CACHED",
    ...(written ? ["WRITTEN"] : []),
    "OUTPUT",
    ...(reasoned ? ["REASONING"] : []),
    "COST",
  ]];
  for (const m of models) rows.push(row(m, byModel[m], sessionCost({ [m]: byModel[m] }, prices)));
  if (models.length > 1) rows.push(row("total", totalUsage(byModel), sessionCost(byModel, prices)));
  const hint = Object.keys(prices ?? {}).length
    ? ""
    : '\nno prices configured: add "prices": { "<model>": { "input": 2, "output": 8 } } (USD per million tokens)';
  return table(rows) + hint;
}

/** The dim line after a turn (`usageLine`), with the cost when the model has a price. */
export function turnUsageLine(
  u: Usage,
  opts: { llm: { current(): { model: string } }; prices?: Record<string, ModelPrice> },
): string {
  let model = "";
  try {
    model = opts.llm.current().model;
  } catch { /* no model, no price */ }
  const cost = sessionCost({ [model]: u }, opts.prices);
  return `${usageLine(u)}${cost ? ` · ${formatUsd(cost.usd)}` : ""}`;
}

/** REPL row: `/usage`: this session's tokens (prompt, cached, output) and cost. */
export function usageSlashCommand(): SlashCommand {
  return {
    name: "/usage",
    help:
      "tokens used by this session (prompt, cached, output, reasoning) and the cost when config.json has prices",
    run: (_a, ctx) => ctx.out.write(sessionUsageText(ctx.conversation().agent.session, ctx.prices) + "\n"),
  };
}
