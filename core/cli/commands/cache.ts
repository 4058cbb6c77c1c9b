import type { CacheSummary, ToolDeferral, Usage } from "../../mod.ts";
import type { SlashCommand } from "../slash.ts";
import type { Style } from "../style.ts";

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : "n/a");

/** The line after each turn: prompt tokens with how many the provider's cache served, and output tokens. */
export function usageLine(u: Usage): string {
  return `${u.prompt_tokens} in · cached ${u.cached_tokens}/${u.prompt_tokens} (${
    percent(u.cached_tokens, u.prompt_tokens)
  }) · ${u.completion_tokens} out${u.reasoning_tokens ? ` (${u.reasoning_tokens} reasoning)` : ""}`;
}

/** `/cache`: the session's hit ratio, every request that broke the cached prefix, and tools kept outside the array. */
export function cacheReport(
  summary: CacheSummary,
  tools: Pick<ToolDeferral, "deferred" | "withdrawn" | "searchable" | "settings">,
  style: Style,
): string {
  const s = summary;
  const lines = [
    `${s.requests} request${
      s.requests === 1 ? "" : "s"
    } · prompt ${s.prompt_tokens} tokens · cached ${s.cached_tokens}${
      s.cache_write_tokens ? ` · written ${s.cache_write_tokens}` : ""
    } · hit ratio ${s.hit_ratio === null ? "n/a" : s.hit_ratio.toFixed(3)}`,
  ];
  if (s.breaks.length) {
    lines.push("requests that did not extend the previous request's prefix:");
    for (const b of s.breaks) lines.push(`  request ${b.request}: ${b.at}`);
  } else lines.push("every request extended the previous one's prefix");
  const outside = [
    tools.deferred.length
      ? `${tools.deferred.length} deferred (call_tool): ${tools.deferred.join(", ")}`
      : "",
    tools.withdrawn.length ? `${tools.withdrawn.length} withdrawn: ${tools.withdrawn.join(", ")}` : "",
    tools.searchable.length ? `${tools.searchable.length} reached through find_tools` : "",
  ].filter(Boolean);
  lines.push(
    style.dim(`tools.defer ${tools.settings.defer}${outside.length ? ` · ${outside.join(" · ")}` : ""}`),
  );
  return lines.join("\n");
}

/** REPL row: `/cache` shows the session's prompt-cache figures. */
export function cacheSlashCommand(): SlashCommand {
  return {
    name: "/cache",
    help: "the session's prompt-cache hit ratio and the requests that broke the cached prefix",
    run: (_a, { conversation, out, style }) => {
      const { agent } = conversation();
      out.write(cacheReport(agent.cache.summary(), agent.deferral, style) + "\n");
    },
  };
}
