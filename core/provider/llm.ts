import type OpenAI from "openai";
import { type Clock, systemClock } from "../clock/mod.ts";
import { readChatStream } from "./chat_stream.ts";
import type { Config } from "../config/mod.ts";
import { type ProviderChoice, type ProviderOverrides, resolveProvider } from "./choice.ts";
import type { OpenAITool } from "../tool/mod.ts";
import { DEFAULT_RETRY, planRetry, type RetryInfo, type RetryPolicy, sleep } from "./retry.ts";
import type { Chunk, Message, ResponseOrigin } from "./messages.ts";
import { readResponsesStream, responsesInput, responsesTools } from "./responses.ts";
import { cacheBreakpoints, chatMessages } from "./wire.ts";

/** One model request. */
export interface ChatRequest {
  /** The conversation to send, system prompt first (as stored: the provider layer shapes it per provider). */
  messages: readonly Message[];
  /** The tools the model may call; empty sends none. */
  tools: readonly OpenAITool[];
  /** Sent as `prompt_cache_key` (the session id) unless the provider sets `prompt_cache_key: false`. */
  cacheKey?: string;
  /** `"none"`: the model may not call tools this time (a summary request keeps the tools for the cache). */
  toolChoice?: "none";
}

/** What a ChatFn may tell its caller while it works. */
export interface ChatOptions {
  /** A failed request is about to be retried after a wait (announce it: the wait can be long). */
  onRetry?(info: RetryInfo): void;
  /** The provider answered: which provider, model and API the response comes from (before the first chunk). */
  onOpen?(origin: ResponseOrigin): void;
}

/**
 * Streams one complete model response as Chat Completions chunks, whichever API the provider speaks. Throws
 * ApiError when the request fails (after retries) and when the stream breaks off or ends incomplete (after
 * yielding what arrived); throws an `AbortError` when `signal` aborts, at any moment.
 */
export type ChatFn = (req: ChatRequest, signal: AbortSignal, opts?: ChatOptions) => AsyncIterable<Chunk>;

/** A failed model request, already formatted as one line without secrets. */
export class ApiError extends Error {
  /** The provider's response headers, when it answered (`retry-after`, `x-should-retry`). */
  readonly headers?: Headers;
  /** The request got no answer: the connection failed or timed out. */
  readonly unanswered: boolean;
  /** The HTTP status, when the provider answered. */
  readonly status?: number;

  /**
   * `message`: one line without secrets; `status`: the HTTP status, when the provider answered;
   * `opts.headers` its headers; `opts.unanswered` when the connection failed.
   */
  constructor(
    message: string,
    status?: number,
    opts: { headers?: Headers; unanswered?: boolean } = {},
  ) {
    super(message);
    this.status = status;
    this.headers = opts.headers;
    this.unanswered = opts.unanswered ?? false;
  }
}

/** Picks provider and model at request time and talks to it through the openai SDK. */
export class LlmClient {
  #config: Config;
  #env: { get(key: string): string | undefined };
  #clock: Clock;
  #clients = new Map<string, OpenAI>();
  /** Provider, model and effort that beat config.json (flags, `/model`, `/effort`); read at every request. */
  overrides: ProviderOverrides;
  /** Which failed requests are retried, how often and how long navi waits at most (config `retry`). */
  retry: RetryPolicy;

  /**
   * Requests go where `config` and `opts` say (`provider`, `model`; without a provider in config, the
   * `OPENAI_*` variables of `opts.env`, default Deno.env); retries follow config `retry`, else the defaults,
   * and wait on `opts.clock` (default the system clock).
   */
  constructor(
    config: Config,
    opts: ProviderOverrides & { env?: { get(key: string): string | undefined }; clock?: Clock } = {},
  ) {
    this.#config = config;
    this.#env = opts.env ?? Deno.env;
    this.#clock = opts.clock ?? systemClock;
    this.overrides = { provider: opts.provider, model: opts.model, effort: opts.effort };
    this.retry = {
      maxRetries: config.retry?.max_retries ?? DEFAULT_RETRY.maxRetries,
      maxWaitMs: (config.retry?.max_wait_s ?? DEFAULT_RETRY.maxWaitMs / 1000) * 1000,
    };
  }

  /** The provider and model the next request will use. */
  current(): ProviderChoice {
    return resolveProvider(this.#config, this.overrides, this.#env);
  }

  /** The provider's model ids (`GET /models`), sorted; needs a provider, not a model. Throws ApiError. */
  async listModels(opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string[]> {
    const choice = resolveProvider(
      this.#config,
      { ...this.overrides, model: this.overrides.model ?? "-" },
      this.#env,
    );
    const client = await this.#client(choice);
    try {
      const ids: string[] = [];
      const page = client.models.list({
        signal: opts.signal,
        timeout: opts.timeoutMs ?? 10_000,
        maxRetries: 0,
      });
      for await (const model of page) ids.push(model.id);
      return ids.sort();
    } catch (err) {
      throw await toApiError(err, choice);
    }
  }

  /** A ChatFn bound to this client. */
  readonly chat: ChatFn = (req, signal, opts) => this.#stream(req, signal, opts ?? {});

  async *#stream(req: ChatRequest, signal: AbortSignal, opts: ChatOptions): AsyncIterable<Chunk> {
    const choice = this.current();
    const client = await this.#client(choice);
    const response = await this.#open(client, { choice, req, signal, onRetry: opts.onRetry });
    const scrub = scrubber(choice);
    opts.onOpen?.({ provider: choice.name, model: choice.model, api: choice.api ?? "chat" });
    const read = choice.api === "responses" ? readResponsesStream : readChatStream;
    yield* read(response.body!, {
      signal,
      where: where(choice),
      scrub,
      fail: (message) => new ApiError(scrub(message)),
    });
  }

  /** Send the request until its headers arrive, retrying as `retry` says; the body is left unread. */
  async #open(
    client: OpenAI,
    r: { choice: ProviderChoice; req: ChatRequest; signal: AbortSignal; onRetry?: ChatOptions["onRetry"] },
  ): Promise<Response> {
    for (let attempt = 1;; attempt++) {
      try {
        const options = { signal: r.signal, maxRetries: 0 };
        return await (r.choice.api === "responses"
          ? client.responses.create(responsesBody(r.choice, r.req) as never, options)
          : client.chat.completions.create(chatBody(r.choice, r.req) as never, options)).asResponse();
      } catch (err) {
        const failure = await toApiError(err, r.choice);
        if (!(failure instanceof ApiError) || r.signal.aborted) throw failure;
        const next = planRetry(failure, {
          attempt,
          policy: this.retry,
          provider: r.choice.name,
          now: this.#clock.now(),
        });
        if ("giveUp" in next) {
          throw next.note
            ? new ApiError(`${failure.message} ${next.note}`, failure.status, failure)
            : failure;
        }
        r.onRetry?.(next);
        await sleep(next.waitMs, r.signal, this.#clock);
      }
    }
  }

  async #client(choice: ProviderChoice): Promise<OpenAI> {
    const key = `${choice.baseURL ?? ""}\n${choice.apiKey}`;
    let client = this.#clients.get(key);
    if (!client) {
      const { default: OpenAIClient } = await import("openai");
      client = new OpenAIClient({ apiKey: choice.apiKey, baseURL: choice.baseURL, maxRetries: 0 });
      this.#clients.set(key, client);
    }
    return client;
  }
}

/** The Chat Completions request body for `choice`: messages shaped for the provider, breakpoints, effort. */
export function chatBody(choice: ProviderChoice, req: ChatRequest): Record<string, unknown> {
  const origin: ResponseOrigin = { provider: choice.name, model: choice.model, api: "chat" };
  let messages = chatMessages(req.messages, origin);
  let tools = req.tools as unknown as Record<string, unknown>[];
  if (choice.cacheControl === "anthropic") ({ tools, messages } = cacheBreakpoints(tools, messages));
  return {
    model: choice.model,
    messages,
    ...(tools.length ? { tools } : {}),
    ...(tools.length && req.toolChoice ? { tool_choice: req.toolChoice } : {}),
    ...(choice.effort ? effortField(choice) : {}),
    stream: true,
    stream_options: { include_usage: true },
    ...(req.cacheKey && choice.promptCacheKey !== false ? { prompt_cache_key: req.cacheKey } : {}),
  };
}

function effortField(choice: ProviderChoice): Record<string, unknown> {
  return choice.openrouter ? { reasoning: { effort: choice.effort } } : { reasoning_effort: choice.effort };
}

/**
 * The Responses request body for `choice`: stateless (`store: false`, the whole conversation as `input`,
 * encrypted reasoning asked for and carried back), the tools in the Responses shape (the same array in, the
 * same bytes out), `prompt_cache_key`, and the effort with reasoning summaries when one is set.
 */
export function responsesBody(choice: ProviderChoice, req: ChatRequest): Record<string, unknown> {
  const origin: ResponseOrigin = { provider: choice.name, model: choice.model, api: "responses" };
  const tools = responsesTools(req.tools as unknown as Record<string, unknown>[]);
  return {
    model: choice.model,
    input: responsesInput(req.messages, origin),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && req.toolChoice ? { tool_choice: req.toolChoice } : {}),
    ...(choice.effort ? { reasoning: { effort: choice.effort, summary: "auto" } } : {}),
    store: false,
    include: ["reasoning.encrypted_content"],
    stream: true,
    ...(req.cacheKey && choice.promptCacheKey !== false ? { prompt_cache_key: req.cacheKey } : {}),
  };
}

function where(choice: ProviderChoice): string {
  return `${choice.name}${choice.baseURL ? ` (${choice.baseURL})` : ""}`;
}

function scrubber(choice: ProviderChoice): (text: string) => string {
  const key = choice.apiKey;
  return (text) => (key.length >= 8 ? text.split(key).join("[redacted]") : text);
}

async function toApiError(err: unknown, choice: ProviderChoice): Promise<unknown> {
  const { APIError, APIUserAbortError, APIConnectionTimeoutError, APIConnectionError } = await import(
    "openai"
  );
  if (err instanceof APIUserAbortError) return err;
  const scrub = scrubber(choice);
  if (err instanceof APIConnectionTimeoutError) {
    return new ApiError(`API request to ${where(choice)} timed out`, undefined, { unanswered: true });
  }
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return new ApiError(`cannot reach ${where(choice)}: ${scrub(cause ?? err.message)}`, undefined, {
      unanswered: true,
    });
  }
  if (err instanceof APIError) {
    const body = err.error as { message?: string } | undefined;
    const msg = scrub(body?.message ?? err.message).replace(/\s+/g, " ").trim();
    const hint = err.status === 400 && CONTEXT_LENGTH.test(msg)
      ? " (the conversation no longer fits the model: /compact or /clear makes room)"
      : "";
    return new ApiError(
      `API error ${err.status ?? ""} from ${where(choice)}: ${msg}${hint}`.replace("  ", " "),
      err.status,
      { headers: err.headers },
    );
  }
  if (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError")) return err;
  return new ApiError(
    `bad response from ${where(choice)}: ${scrub(err instanceof Error ? err.message : String(err))}`,
  );
}

const CONTEXT_LENGTH = /context length|context window|too many tokens|maximum context|prompt is too long/i;

/** Whether a failed request was refused because the prompt does not fit the model's context window. */
export function isContextLengthError(err: unknown): boolean {
  return err instanceof ApiError && err.status === 400 && CONTEXT_LENGTH.test(err.message);
}

/** Start loading the openai SDK in the background (e.g. while MCP servers connect). */
export function preloadSdk(): void {
  import("openai").catch(() => {});
}

/** Whether an error is the user's abort (Ctrl-C) of a request. */
export function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted ||
    (err instanceof Error && (err.name === "AbortError" || err.name === "APIUserAbortError"));
}
