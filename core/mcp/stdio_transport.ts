import { Buffer } from "node:buffer";
import { type JSONRPCMessage, type McpTransport, ReadBuffer, serializeMessage } from "./sdk.ts";
import type { StdioProcess } from "./stdio_process.ts";

/**
 * The MCP stdio transport over a `StdioProcess` that may already be running (navi starts stdio servers before
 * it loads the MCP SDK). Messages are newline-delimited JSON, parsed by the SDK's `ReadBuffer`; the process
 * exiting closes the transport.
 */
export class ProcessTransport implements McpTransport {
  /** Called once when the process exits or the transport is closed. */
  onclose?: () => void;
  /** Called for unparsable output and failed writes. */
  onerror?: (error: Error) => void;
  /** Called for every message from the server. */
  onmessage?: (message: JSONRPCMessage) => void;
  #proc: StdioProcess;
  #buffer = new ReadBuffer();
  #encoder = new TextEncoder();
  #closed = false;
  #reading?: Promise<void>;

  /** Speak MCP over `proc`'s stdin and stdout. */
  constructor(proc: StdioProcess) {
    this.#proc = proc;
  }

  /** The server process. */
  get process(): StdioProcess {
    return this.#proc;
  }

  /** Start reading the server's stdout. */
  start(): Promise<void> {
    this.#reading = this.#read();
    this.#proc.exited.then(() => this.#finish(), () => this.#finish());
    return Promise.resolve();
  }

  /** Send one message. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the server process has exited");
    await this.#proc.write(this.#encoder.encode(serializeMessage(message)));
  }

  /** Stop the server (see `StdioProcess.stop`). */
  async close(): Promise<void> {
    await this.#proc.stop();
    await this.#reading;
    this.#finish();
  }

  async #read(): Promise<void> {
    try {
      for await (const chunk of this.#proc.child.stdout) {
        if (!this.#attempt(() => this.#buffer.append(Buffer.from(chunk)))) continue;
        for (;;) {
          let message: JSONRPCMessage | null = null;
          if (!this.#attempt(() => (message = this.#buffer.readMessage()))) continue;
          if (!message) break;
          this.onmessage?.(message);
        }
      }
    } catch { /* the stream ends with the process */ }
  }

  #attempt(fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return false;
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
