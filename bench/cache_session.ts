// The prompt-cache benchmark: one conversation of 40 model requests against the caching test server (prompt
// tokens = bytes / 4, cached = longest common prefix in 128-token steps), with an MCP tools/list_changed that adds
// a tool, another server changing a description, /plugins reload adding a plugin tool, approval plan -> ask and a
// resume in a new process; once per `tools.defer` setting. `deno run -A bench/cache_session.ts` (in `deno task
// bench`). Prints the session's hit ratio and the tokens billed again at each event.
import type { DeferMode } from "../core/mod.ts";
import { EVENTS, runScenario, type ScenarioResult } from "../tests/support/cache_scenario.ts";

const MODES: DeferMode[] = ["auto", "never", "always"];
const results = new Map<DeferMode, ScenarioResult>();
for (const defer of MODES) {
  const r = await runScenario({ defer, turns: 16, eventTurns: [3, 7, 10, 13], resumedRequests: 8 });
  if (r.requests.length !== 40) throw new Error(`${defer}: ${r.requests.length} requests, expected 40`);
  results.set(defer, r);
  console.error(`ran tools.defer ${defer}`);
}

const n = (x: number) => x.toLocaleString("en-US");
const rows = [
  `| tokens billed again at each event (request) | ${MODES.map((m) => `\`${m}\``).join(" | ")} |`,
  `| --- | ${MODES.map(() => "---:").join(" | ")} |`,
];
EVENTS.forEach((event, i) => {
  const cells = MODES.map((m) => {
    const e = results.get(m)!.events[i];
    return `${n(e.rebilled)}${e.call.via === "call_tool" ? " (call_tool)" : ""}`;
  });
  rows.push(`| ${event} (${results.get("auto")!.events[i].request + 1}) | ${cells.join(" | ")} |`);
});
rows.push(
  `| prompt tokens, cached / all | ${
    MODES.map((m) => `${n(results.get(m)!.cached)} / ${n(results.get(m)!.prompt)}`).join(" | ")
  } |`,
);
rows.push(
  `| **hit ratio** | ${MODES.map((m) => `**${results.get(m)!.hitRatio.toFixed(3)}**`).join(" | ")} |`,
);
rows.push(
  `| new tool worked at the next request | ${
    MODES.map((m) => `${results.get(m)!.events.filter((e) => e.call.ok).length}/${EVENTS.length}`).join(" | ")
  } |`,
);
console.log(`\n40 model requests per setting, ${Deno.build.os} ${navigator.hardwareConcurrency} cores\n`);
console.log(rows.join("\n"));
const broken = MODES.flatMap((m) =>
  results.get(m)!.events.filter((e) => !e.call.ok).map((e) => `${m}: ${e.event}`)
);
if (broken.length) {
  console.error(`a new tool failed at the next request: ${broken.join("; ")}`);
  Deno.exit(1);
}
