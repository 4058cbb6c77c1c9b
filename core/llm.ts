import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { Config } from "./config.ts";
import { type ProviderChoice, resolveProvider } from "./provider.ts";
import type { OpenAITool } from "./registry.ts";
import type { Message } from "./session.ts";

/** One streamed piece of a model response (the openai SDK's ChatCompletionChunk). */
export type Chunk = ChatCompletionChunk;

/** One model request. */
export interface ChatRequest {
  /** The conversation to send, system prompt first. */
  messages: readonly Message[];
  /** The tools the model may call; empty sends none. */
  tools: readonly OpenAITool[];
}

/** Streams one model response; throws ApiError on a failed request. */
export type ChatFn = (req: ChatRequest, signal: AbortSignal) => AsyncIterable<Chunk>;

/** A failed model request, already formatted as one line without secrets. */
export class ApiError extends Error {
  /** `message`: one line without secrets; `status`: the HTTP status, when the provider answered. */
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** Picks provider and model at request time and talks to it through the openai SDK. */
export class LlmClient {
  #config: Config;
  #clients = new Map<string, OpenAI>();
  /** Provider and model that beat config.json (flags, `/model`); read at every request. */
  overrides: { provider?: string; model?: string };
  /** How often a failed request is retried (default 3); read when a provider's client is created. */
  maxRetries: number;

  /** Requests go where `config` and `overrides` say; `opts.maxRetries` defaults to 3. */
  constructor(
    config: Config,
    overrides: { provider?: string; model?: string } = {},
    opts: { maxRetries?: number } = {},
  ) {
    this.#config = config;
    this.overrides = { ...overrides };
    this.maxRetries = opts.maxRetries ?? 3;
  }

  /** The provider and model the next request will use. */
  current(): ProviderChoice {
    return resolveProvider(this.#config, this.overrides);
  }

  /** A ChatFn bound to this client. */
  readonly chat: ChatFn = (req, signal) => this.#stream(req, signal);

  async *#stream(req: ChatRequest, signal: AbortSignal): AsyncIterable<Chunk> {
    const choice = this.current();
    const client = await this.#client(choice);
    let stream: AsyncIterable<Chunk>;
    try {
      stream = await client.chat.completions.create(
        {
          model: choice.model,
          messages: req.messages as unknown as OpenAI.ChatCompletionMessageParam[],
          ...(req.tools.length ? { tools: req.tools as OpenAI.ChatCompletionTool[] } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      );
      for await (const chunk of stream) yield chunk;
    } catch (err) {
      throw await toApiError(err, choice);
    }
  }

  async #client(choice: ProviderChoice): Promise<OpenAI> {
    const key = `${choice.baseURL ?? ""}\n${choice.apiKey}`;
    let client = this.#clients.get(key);
    if (!client) {
      const { default: OpenAIClient } = await import("openai");
      client = new OpenAIClient({
        apiKey: choice.apiKey,
        baseURL: choice.baseURL,
        maxRetries: this.maxRetries,
      });
      this.#clients.set(key, client);
    }
    return client;
  }
}

async function toApiError(err: unknown, choice: ProviderChoice): Promise<unknown> {
  const { APIError, APIUserAbortError, APIConnectionTimeoutError, APIConnectionError } = await import(
    "openai"
  );
  if (err instanceof APIUserAbortError) return err;
  const where = `${choice.name}${choice.baseURL ? ` (${choice.baseURL})` : ""}`;
  const scrub = (s: string) => s.split(choice.apiKey).join("[redacted]");
  if (err instanceof APIConnectionTimeoutError) return new ApiError(`API request to ${where} timed out`);
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return new ApiError(`cannot reach ${where}: ${scrub(cause ?? err.message)}`);
  }
  if (err instanceof APIError) {
    const body = err.error as { message?: string } | undefined;
    const msg = scrub(body?.message ?? err.message).replace(/\s+/g, " ").trim();
    const hint =
      err.status === 400 && /context length|context window|too many tokens|maximum context/i.test(msg)
        ? " (the conversation no longer fits the model: /clear starts a new one)"
        : "";
    return new ApiError(
      `API error ${err.status ?? ""} from ${where}: ${msg}${hint}`.replace("  ", " "),
      err.status,
    );
  }
  if (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError")) return err;
  return new ApiError(
    `bad response from ${where}: ${scrub(err instanceof Error ? err.message : String(err))}`,
  );
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
