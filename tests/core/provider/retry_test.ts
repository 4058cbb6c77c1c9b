// Retries of failed model requests: retry-after honoured up to retry.max_wait_s, announced, abortable.
import { ApiError, type Config, LlmClient, parseConfig, type RetryInfo } from "../../../core/mod.ts";
import { requestedWait } from "../../../core/provider/retry.ts";
import { startLlmServer, type Step } from "../../support/llm_server.ts";
import { FakeClock } from "../../support/clock.ts";
import { assert, assertEquals, assertMatch, assertThrows, until } from "../../helpers.ts";

function client(url: string, retry?: Config["retry"], clock?: FakeClock) {
  return new LlmClient({
    providers: { t: { base_url: url, api_key: "sk-retry-test-key" } },
    model: "m",
    retry,
  }, { clock });
}

/** Consume one chat; resolves to the text or the error, or "still waiting" after `ms`. */
async function chat(llm: LlmClient, opts: { signal?: AbortSignal; ms?: number; retries?: RetryInfo[] } = {}) {
  const signal = opts.signal ?? new AbortController().signal;
  const run = (async () => {
    let text = "";
    for await (
      const c of llm.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }, signal, {
        onRetry: (info) => opts.retries?.push(info),
      })
    ) text += c.choices?.[0]?.delta?.content ?? "";
    return text;
  })().catch((e: unknown) => e);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((r) => (timer = setTimeout(() => r("still waiting"), opts.ms ?? 10_000)));
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("retry-after within the bound is announced and honoured", async () => {
  const server = startLlmServer([
    { status: 429, message: "slow down", headers: { "retry-after": "1" } },
    { text: "ok now" },
  ]);
  try {
    const clock = new FakeClock();
    const retries: RetryInfo[] = [];
    const answer = chat(client(server.url, undefined, clock), { retries });
    await until(() => clock.pending > 0, 5000, "the retry wait");
    assertEquals(retries.map((r) => r.message), ["rate limited (429), retrying in 1 s (retry 1 of 3)"]);
    assertEquals(retries[0].waitMs, 1000);
    assertEquals(
      [server.requests.length, clock.nextDue],
      [1, 1000],
      "the second try waits the second asked for",
    );
    clock.advance(1000);
    assertEquals(await answer, "ok now");
    assertEquals(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("retry-after beyond the bound fails at once with one clear line", async () => {
  const server = startLlmServer(() => ({
    status: 429,
    message: "slow down",
    headers: { "retry-after": "3600" },
  }));
  try {
    const error = await chat(client(server.url), { ms: 5000 });
    assert(error instanceof ApiError, String(error));
    assertEquals(error.status, 429);
    assertMatch(
      error.message,
      /^API error 429 from t \(http:\/\/127\.0\.0\.1:\d+\/v1\): slow down \(the provider asks to retry in 3600 s, longer than retry\.max_wait_s 60 s\)$/,
    );
    assertEquals(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("retry.max_wait_s in config.json sets the bound; an HTTP-date retry-after counts too", async () => {
  const date = new Date(Date.now() + 20_000).toUTCString();
  const server = startLlmServer([
    { status: 503, message: "busy", headers: { "retry-after": "5" } },
    { status: 503, message: "busy", headers: { "retry-after": date } },
  ]);
  try {
    const error = await chat(client(server.url, { max_wait_s: 2 }), { ms: 5000 });
    assert(error instanceof ApiError, String(error));
    assertMatch(
      error.message,
      /^API error 503 .*: busy \(the provider asks to retry in 5 s, longer than retry\.max_wait_s 2 s\)$/,
    );
    const wide = await chat(client(server.url, { max_wait_s: 10 }), { ms: 5000 });
    assert(wide instanceof ApiError, String(wide));
    assertMatch(wide.message, /asks to retry in (19|20) s, longer than retry\.max_wait_s 10 s/);
  } finally {
    await server.close();
  }
});

Deno.test("an abort during a retry wait ends the wait at once", async () => {
  const server = startLlmServer([
    { status: 429, message: "slow down", headers: { "retry-after": "30" } },
    { text: "too late" },
  ]);
  try {
    const clock = new FakeClock();
    const controller = new AbortController();
    const retries: RetryInfo[] = [];
    const run = chat(client(server.url, undefined, clock), { signal: controller.signal, ms: 5000, retries });
    await until(() => clock.pending > 0, 5000, "the retry wait");
    controller.abort();
    const error = await run;
    assert(error instanceof Error && error.name === "AbortError", String(error));
    assertEquals(retries.map((r) => r.message), ["rate limited (429), retrying in 30 s (retry 1 of 3)"]);
    assertEquals([server.requests.length, clock.pending], [1, 0], "no second try; the wait is cancelled");
  } finally {
    await server.close();
  }
});

Deno.test("retry.max_retries bounds the retries; 4xx other than 408/409/429 are not retried", async () => {
  const failing: Step = { status: 500, message: "broken", headers: { "retry-after-ms": "1" } };
  const server = startLlmServer((i) => (i < 2 ? failing : { status: 403, message: "forbidden" }));
  try {
    const error = await chat(client(server.url, { max_retries: 1 }));
    assert(error instanceof ApiError);
    assertMatch(error.message, /^API error 500 .*: broken$/);
    assertEquals(server.requests.length, 2, "the first try and one retry");
    const forbidden = await chat(client(server.url));
    assert(forbidden instanceof ApiError);
    assertEquals(forbidden.status, 403);
    assertEquals(server.requests.length, 3, "403 is not retried");
  } finally {
    await server.close();
  }
});

Deno.test("retry-after forms: milliseconds, seconds, an HTTP date, nonsense", () => {
  const h = (init: Record<string, string>) => new Headers(init);
  assertEquals(requestedWait(h({ "retry-after-ms": "250" })), 250);
  assertEquals(requestedWait(h({ "retry-after": "20" })), 20_000);
  assertEquals(
    requestedWait(h({ "retry-after": "Wed, 21 Oct 2037 07:28:00 GMT" }), Date.UTC(2037, 9, 21, 7, 27)),
    60_000,
  );
  assertEquals(requestedWait(h({ "retry-after": "soon" })), undefined);
  assertEquals(requestedWait(h({})), undefined);
});

Deno.test("the retry section of config.json is validated", () => {
  assertEquals(parseConfig('{"retry":{"max_wait_s":5,"max_retries":0}}', "c.json").retry, {
    max_wait_s: 5,
    max_retries: 0,
  });
  assertThrows(() => parseConfig('{"retry":{"max_wait":5}}', "c.json"), /^c\.json: retry: Unrecognized key/);
  assertThrows(() => parseConfig('{"retry":{"max_wait_s":-1}}', "c.json"), /^c\.json: retry\.max_wait_s: /);
});
