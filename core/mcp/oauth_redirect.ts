import { type Clock, systemClock } from "../clock/mod.ts";

/** Why a login did not complete (timed out, denied, a forged redirect). */
export class LoginError extends Error {}

const PAGE = (text: string) =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>navi</title><p style="font-family:sans-serif">${text}</p>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );

/**
 * The loopback listener an OAuth login redirects back to: `http://127.0.0.1:<port>/callback`. Binds on first
 * use of `url` (the preferred port when free, else any), accepts one redirect whose `state` matches, and is
 * closed by `close()`.
 */
export class LoopbackRedirect {
  #port: number;
  #server?: Deno.HttpServer<Deno.NetAddr>;
  #waiting?: { state: string; resolve(code: string): void; reject(err: Error): void };

  /** Listen on `preferredPort` when it is free (default: any free port). */
  constructor(opts: { preferredPort?: number } = {}) {
    this.#port = opts.preferredPort ?? 0;
  }

  /** The redirect URL; starts listening when first read. */
  get url(): string {
    this.#server ??= this.#listen();
    return `http://127.0.0.1:${this.#server.addr.port}/callback`;
  }

  /**
   * The authorization code of the next redirect carrying `state`; rejects with a LoginError when the
   * authorization server reports an error or nothing arrives within `timeoutMs` (on `clock`).
   */
  expect(state: string, timeoutMs: number, clock: Clock = systemClock): Promise<string> {
    void this.url;
    this.#waiting?.reject(new LoginError("superseded by a newer login attempt"));
    return new Promise<string>((resolve, reject) => {
      const timer = clock.setTimeout(
        () => done(() => reject(new LoginError(`no login within ${seconds(timeoutMs)} s`))),
        timeoutMs,
      );
      const done = (fn: () => void) => {
        clock.clearTimeout(timer);
        this.#waiting = undefined;
        fn();
      };
      this.#waiting = {
        state,
        resolve: (code) => done(() => resolve(code)),
        reject: (err) => done(() => reject(err)),
      };
    });
  }

  /** Stop listening; a pending `expect` is rejected. */
  async close(): Promise<void> {
    this.#waiting?.reject(new LoginError("the login was cancelled"));
    const server = this.#server;
    this.#server = undefined;
    if (server) await server.shutdown();
  }

  #listen(): Deno.HttpServer<Deno.NetAddr> {
    const serve = (port: number) =>
      Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, (req) => this.#handle(req));
    try {
      return serve(this.#port);
    } catch (err) {
      if (this.#port === 0 || !(err instanceof Deno.errors.AddrInUse)) throw err;
      return serve(0);
    }
  }

  #handle(req: Request): Response {
    const url = new URL(req.url);
    if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
    const waiting = this.#waiting;
    if (!waiting || url.searchParams.get("state") !== waiting.state) {
      return PAGE("This login link is not the one navi is waiting for; start the login again.");
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error || !code) {
      const why = [error ?? "no code", url.searchParams.get("error_description")].filter(Boolean).join(": ");
      waiting.reject(new LoginError(`the authorization server refused: ${why.slice(0, 200)}`));
      return PAGE(`navi: login failed (${why.slice(0, 200).replace(/[<&]/g, "")}). You can close this tab.`);
    }
    waiting.resolve(code);
    return PAGE("navi: login complete. You can close this tab.");
  }
}

function seconds(ms: number): string {
  return ms % 1000 ? (ms / 1000).toFixed(1) : String(ms / 1000);
}
