// prompt_cache_key: every request carries the session id, unless the provider sets "prompt_cache_key": false.
import { type Config, NaviApp, openConversation, parseConfig } from "../../../core/mod.ts";
import { builtinTools } from "../../../tools/mod.ts";
import { startLlmServer } from "../../support/llm_server.ts";
import { assert, assertEquals, assertThrows, tempDir } from "../../helpers.ts";

async function converse(provider: Record<string, unknown>) {
  const server = startLlmServer([
    { toolCalls: [{ name: "list_dir", arguments: "{}" }] },
    { text: "one" },
    { text: "two" },
  ]);
  await using home = await tempDir();
  const config = {
    providers: { t: { base_url: server.url, api_key: "k", ...provider } },
    model: "m",
  } as Config;
  const app = new NaviApp({
    home: home.path,
    workspace: home.path,
    config,
    builtins: builtinTools(),
    env: Deno.env,
  });
  try {
    const first = openConversation(app, {});
    await first.agent.run("first", new AbortController().signal);
    const id = first.agent.session.meta.id;
    await openConversation(app, { resume: id }).agent.run("second", new AbortController().signal);
    return { id, requests: server.requests };
  } finally {
    await server.close();
  }
}

Deno.test("every request carries the session id as prompt_cache_key, across a resume", async () => {
  const { id, requests } = await converse({});
  assertEquals(requests.length, 3);
  assertEquals(requests.map((r) => r.body.prompt_cache_key), [id, id, id]);
});

Deno.test('a provider with "prompt_cache_key": false gets requests without the field', async () => {
  const { requests } = await converse({ prompt_cache_key: false });
  assertEquals(requests.length, 3);
  assert(requests.every((r) => !r.raw.includes("prompt_cache_key")));
});

Deno.test("providers.<name>.prompt_cache_key must be a boolean", () => {
  const cfg = parseConfig('{"providers":{"p":{"base_url":"http://x","prompt_cache_key":false}}}', "c.json");
  assertEquals(cfg.providers?.p.prompt_cache_key, false);
  assertThrows(
    () => parseConfig('{"providers":{"p":{"prompt_cache_key":"no"}}}', "c.json"),
    /^c\.json: providers\.p\.prompt_cache_key: /,
  );
});
