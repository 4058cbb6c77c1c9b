import { configPath, type Conversation, type NaviApp } from "../mod.ts";
import type { Style } from "./style.ts";

/** What to do when no provider or model is configured: both ways, with the config path and an example. */
export function firstRunHelp(home: string, problem: string): string {
  return [
    `navi: ${problem}`,
    "Either set environment variables:",
    "  export OPENAI_API_KEY=sk-...  OPENAI_MODEL=gpt-4.1  (OPENAI_BASE_URL=... for another endpoint)",
    `or write ${configPath(home)}, for example:`,
    '  { "providers": { "openai": { "base_url": "https://api.openai.com/v1", "api_key": "$OPENAI_API_KEY" } },',
    '    "model": "gpt-4.1" }',
    "navi doctor checks the setup.",
  ].join("\n");
}

/** The REPL's first lines: version, workspace, provider and model, approval mode; setup help when needed. */
export function banner(parts: { app: NaviApp; convo: Conversation; style: Style; version: string }): string {
  const { app, convo, style } = parts;
  let model: string;
  let help: string | undefined;
  try {
    const c = convo.llm.current();
    model = `${c.name} · ${c.model}`;
  } catch (err) {
    model = style.yellow("no model");
    help = firstRunHelp(app.home, (err as Error).message);
  }
  const mode = convo.policy.mode;
  const lines = [
    style.dim(`navi ${parts.version} · ${app.workspace} · `) + model +
    style.dim(` · approval ${mode} · /help for commands`),
  ];
  if (help) lines.push(style.yellow(help));
  if (mode === "auto") lines.push(style.yellow("warning: approval mode auto runs every tool without asking"));
  return lines.join("\n");
}
