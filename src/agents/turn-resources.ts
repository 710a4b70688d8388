interface Held {
  value: unknown;
  close: () => Promise<void> | void;
}

/**
 * What one invocation holds open for its steps and tools (an MCP server's connection, say): each made at
 * its first use, shared by every agent and branch of the invocation (and the agents its AgentTools run),
 * and closed when the invocation ends, whichever way it ends. A Worker cannot keep an I/O object across
 * requests, and an invocation runs in one.
 */
export class TurnResources {
  private readonly held = new Map<object | string, Held>();
  private released = false;

  /**
   * The value held under `key`, opened now if nothing is; `close` runs when the invocation ends, or when
   * it is dropped. After the end nothing is held: `open`'s value is returned and closed by the caller.
   */
  hold<T>(key: object | string, open: () => T, close: (value: T) => Promise<void> | void): T {
    const held = this.held.get(key);
    // SAFETY: a key is held with one type by the one owner that knows it.
    if (held !== undefined) return held.value as T;
    const value = open();
    if (!this.released) this.held.set(key, { value, close: () => close(value) });
    return value;
  }

  /** Whether something is held under `key` (nothing is once the invocation has ended). */
  holds(key: object | string): boolean {
    return this.held.has(key);
  }

  /** Closes what `key` holds now (a connection found broken, say); the next `hold` opens another. */
  async drop(key: object | string): Promise<void> {
    const held = this.held.get(key);
    if (held === undefined) return;
    this.held.delete(key);
    await held.close();
  }

  /** Closes everything held, together; a failure to close is logged, never thrown. */
  async release(log: (message: string) => void): Promise<void> {
    this.released = true;
    const all = [...this.held.values()];
    this.held.clear();
    const results = await Promise.allSettled(all.map(async (held) => held.close()));
    for (const result of results)
      if (result.status === "rejected")
        log(`A resource of the invocation failed to close: ${String(result.reason)}`);
  }
}
