import type { Tool } from "@modelcontextprotocol/server";

/** JSON-RPC's code for a header that does not match the body (MCP 2026-07-28, SEP-2243). */
export const HEADER_MISMATCH = -32020;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A custom header's value: `=?base64?…?=` is strict Base64 of UTF-8 text (`undefined` when it is not valid
 * Base64), anything else is the literal value.
 */
function headerValue(raw: string): string | undefined {
  const encoded = /^=\?base64\?(.*)\?=$/.exec(raw)?.[1];
  if (encoded === undefined) return raw;
  if (!BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(encoded), (ch) => ch.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

/** The argument as its header carries it: strings as they are, numbers and booleans as JSON writes them. */
const asHeader = (value: unknown): string | undefined =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : undefined;

/**
 * Why a 2026-07-28 `tools/call` does not match its `Mcp-Param-<Name>` headers (SEP-2243), or `undefined`:
 * every argument whose input schema property names an `x-mcp-header` must come with that header, holding
 * the same value (literal, or `=?base64?…?=`), and no such header may come without its argument.
 */
export function paramHeaderMismatch(
  headers: Headers,
  tool: Tool | undefined,
  args: Record<string, unknown>,
): string | undefined {
  const properties = tool?.inputSchema.properties ?? {};
  for (const [param, schema] of Object.entries(properties)) {
    const name =
      typeof schema === "object" && schema !== null && "x-mcp-header" in schema
        ? schema["x-mcp-header"]
        : undefined;
    if (typeof name !== "string") continue;
    const header = `Mcp-Param-${name}`;
    const raw = headers.get(header);
    const expected = asHeader(args[param]);
    if (raw === null && expected === undefined) continue;
    if (raw === null) return `The ${header} header is required with the "${param}" argument.`;
    const value = headerValue(raw);
    if (value === undefined) return `The ${header} header is not valid Base64.`;
    if (value !== expected) return `The ${header} header does not match the "${param}" argument.`;
  }
  return undefined;
}
