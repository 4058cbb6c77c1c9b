/**
 * Who owns each exposed MCP tool name when two servers' tools map to the same `mcp__<server>__<tool>`: the
 * server listed first in config.json among those that offer it, whatever order they connect in. A server
 * whose claims change makes the others re-apply their lists (a loser drops the name, reporting it; a server
 * that loses its rival regains it).
 */
export class NameClaims {
  #rank: Map<string, number>;
  #wants = new Map<string, ReadonlySet<string>>();
  #reapply = new Map<string, () => void>();

  /** `servers` in config order. */
  constructor(servers: readonly string[]) {
    this.#rank = new Map(servers.map((s, i) => [s, i]));
  }

  /** Re-apply `server`'s list when ownership of one of its names changes. */
  subscribe(server: string, reapply: () => void): void {
    this.#reapply.set(server, reapply);
  }

  /** The server that owns `name`, if any server wants it. */
  owner(name: string): string | undefined {
    let best: string | undefined;
    for (const [server, names] of this.#wants) {
      if (names.has(name) && (best === undefined || this.#rankOf(server) < this.#rankOf(best))) best = server;
    }
    return best;
  }

  /** Record the names `server` offers now; returns the other servers whose ownership changed. */
  set(server: string, names: ReadonlySet<string>): string[] {
    const touched = [...new Set([...names, ...(this.#wants.get(server) ?? [])])];
    const before = touched.map((n) => this.owner(n));
    this.#wants.set(server, names);
    const affected = new Set<string>();
    touched.forEach((name, i) => {
      const owner = this.owner(name);
      if (before[i] === owner) return;
      for (const s of [before[i], owner]) if (s && s !== server) affected.add(s);
    });
    return [...affected];
  }

  /** Let `servers` re-apply their lists. */
  notify(servers: string[]): void {
    for (const s of servers) this.#reapply.get(s)?.();
  }

  #rankOf(server: string): number {
    return this.#rank.get(server) ?? Number.MAX_SAFE_INTEGER;
  }
}
