import { type Config, presetNamed, PRESETS, resolveProvider } from "../../mod.ts";
import { makeStyle, table } from "../style.ts";

/** One row of `navi providers`. */
export interface ProviderRow {
  /** The name for `"provider"` and `--provider`. */
  name: string;
  /** `preset`, `configured` (a config.json entry; `preset` names the preset it starts from) */
  kind: "preset" | "configured";
  /** The preset a configured entry starts from. */
  preset?: string;
  /** Its endpoint. */
  base_url?: string;
  /** The variable its key is read from, when it has one. */
  key_variable?: string;
  /** Whether that variable is set (never the value). */
  key_set?: boolean;
  /** `chat` or `responses`. */
  api: "chat" | "responses";
  /** The provider navi would use now (config `provider`, else the only entry). */
  current: boolean;
  /** What navi handles for it. */
  note?: string;
}

/** The presets and the configured providers, as `navi providers` shows them. */
export function providerRows(config: Config, env: { get(key: string): string | undefined }): ProviderRow[] {
  let current: string | undefined;
  try {
    current = resolveProvider(config, { model: "-" }, env).name;
  } catch { /* nothing usable is configured */ }
  const variable = (ref: string | undefined) => /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(ref ?? "")?.[1];
  const configured = Object.entries(config.providers ?? {}).map(([name, p]): ProviderRow => {
    const preset = presetNamed(p.preset ?? name);
    const key = p.api_key === undefined ? preset?.key : variable(p.api_key);
    return {
      name,
      kind: "configured",
      ...(preset ? { preset: preset.name } : {}),
      base_url: p.base_url ?? preset?.base_url,
      ...(key ? { key_variable: key, key_set: env.get(key) !== undefined } : {}),
      api: p.api ?? "chat",
      current: name === current,
      ...(preset ? { note: preset.note } : {}),
    };
  });
  const presets = PRESETS.filter((p) => !config.providers?.[p.name]).map((p): ProviderRow => ({
    name: p.name,
    kind: "preset",
    base_url: p.base_url,
    ...(p.key ? { key_variable: p.key, key_set: env.get(p.key) !== undefined } : {}),
    api: "chat",
    current: p.name === current,
    note: p.note,
  }));
  return [...configured, ...presets];
}

/** `navi providers [--json]`: configured entries first, then the presets, with key variables set or not. */
export function providersCommand(
  config: Config,
  opts: { json?: boolean; env: { get(key: string): string | undefined } },
): string {
  const rows = providerRows(config, opts.env);
  if (opts.json) return JSON.stringify(rows, null, 2);
  const style = makeStyle(Deno.stdout.isTerminal());
  const key = (r: ProviderRow) =>
    r.key_variable ? `${r.key_variable} ${r.key_set ? style.green("set") : style.yellow("not set")}` : "none";
  const body = rows.map((r) => [
    `${r.current ? "* " : "  "}${r.name}`,
    r.kind === "configured" ? `config${r.preset && r.preset !== r.name ? ` (${r.preset})` : ""}` : "preset",
    r.base_url ?? "(OpenAI)",
    key(r),
    r.api === "responses" ? "responses" : style.dim(r.note ?? ""),
  ]);
  return [
    table([["  NAME", "FROM", "BASE URL", "KEY", "NOTES"].map(style.bold), ...body]),
    "",
    style.dim('"provider": "<name>" in config.json or --provider <name>; a providers entry of the same name'),
    style.dim("overrides a preset's fields (docs/providers.md)"),
  ].join("\n");
}
