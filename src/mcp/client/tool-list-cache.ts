import type { McpToolInfo } from "./mcp-tool.js";

/** A set of headers as a string, the same whatever their order. */
export const headersKey = (headers: Record<string, string>): string =>
  JSON.stringify(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** At most this many header sets per toolset keep a tool list (one per user token, say). */
const MAX_ENTRIES = 64;

interface Entry {
  tools: readonly McpToolInfo[];
  listedAt: number;
}

/**
 * A toolset's tool lists in this isolate, one per set of request headers (a per-user token may see other
 * tools), reused for `ttlMs`. A stale list is still handed out when the server cannot be listed.
 */
export class ToolListCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number) {}

  get(
    headers: Record<string, string>,
    now: number,
  ): { tools: readonly McpToolInfo[]; fresh: boolean } | undefined {
    const entry = this.entries.get(headersKey(headers));
    if (entry === undefined) return undefined;
    return { tools: entry.tools, fresh: now - entry.listedAt < this.ttlMs };
  }

  set(headers: Record<string, string>, tools: readonly McpToolInfo[], now: number): void {
    const key = headersKey(headers);
    this.entries.delete(key);
    this.entries.set(key, { tools, listedAt: now });
    // Oldest first in a Map: drop from the front past the bound.
    for (const old of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(old);
    }
  }
}
