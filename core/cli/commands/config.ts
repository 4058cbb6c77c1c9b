import { configPath, loadConfig, loadProjectLayer, naviHome } from "../../mod.ts";
import { makeStyle, table } from "../style.ts";

const SECRET_KEYS = new Set(["api_key", "client_secret"]);

/** A value as `navi config --show` prints it: secrets masked unless they name a variable (`$VAR`). */
function shown(path: string, value: unknown): unknown {
  const parts = path.split(".");
  const last = parts.at(-1)!;
  const secret = SECRET_KEYS.has(last) || parts.at(-2) === "headers" || parts.at(-2) === "env";
  if (secret && typeof value === "string" && !/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return "(secret)";
  return value;
}

function leaves(value: unknown, prefix: string, out: [string, unknown][]): void {
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out.push([prefix, shown(prefix, value)]);
}

/** `navi config --show`: every value in force here with the file it came from, then what was not applied. */
export async function configShow(opts: { json?: boolean }): Promise<string> {
  const home = naviHome();
  const problems: string[] = [];
  const layer = await loadProjectLayer({
    home,
    workspace: Deno.cwd(),
    env: Deno.env,
    user: await loadConfig(home),
    report: (line) => problems.push(line),
  });
  const { config, provenance } = layer.merged;
  const rows: [string, unknown][] = [];
  leaves(config, "", rows);
  const from = (path: string) => {
    for (let p = path; p; p = p.slice(0, Math.max(0, p.lastIndexOf(".")))) {
      const file = provenance.get(p);
      if (file) return file;
      if (!p.includes(".")) break;
    }
    return configPath(home);
  };
  if (opts.json) {
    const masked: Record<string, unknown> = {};
    for (const [path, value] of rows) masked[path] = { value, from: from(path) };
    return JSON.stringify({ values: masked, not_applied: problems }, null, 2);
  }
  const style = makeStyle(Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"));
  const body = rows.length
    ? table(rows.map(([path, value]) => [path, JSON.stringify(value), style.dim(from(path))]))
    : `no settings (defaults everywhere); ${configPath(home)} does not set any`;
  const trust = layer.project.runnables().length
    ? `\n${
      style.dim(`project ${layer.project.layout.root}: ${layer.project.trusted ? "trusted" : "not trusted"}`)
    }`
    : "";
  const notApplied = problems.length
    ? `\n${style.bold("not applied:")}\n${problems.map((p) => `  ${p}`).join("\n")}`
    : "";
  return body + trust + notApplied;
}
