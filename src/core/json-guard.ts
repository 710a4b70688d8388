import { BatonError } from "./errors.js";
import { shapeProblem } from "./safe-shape.js";

/**
 * The one guard every JSON body that enters Baton passes (decision 048): the ADK routes, both A2A bindings,
 * MCP, webhooks, evals, artifacts and their metadata. It measures the text, parses it, and checks the
 * shape (`shapeProblem`: depth over 64, `__proto__`/`constructor`/`prototype` keys) before anything else
 * reads it, so no route's own parsing can skip a check. Each entry answers a refusal in its own protocol.
 */

/**
 * Why a body was refused: too many bytes, no body, not JSON, or a hostile shape at `path` (with the value
 * parsed, for a protocol that names a request's id in its refusal; nothing may walk it).
 */
export type JsonRefusal =
  | { reason: "size" | "empty" | "syntax"; message: string }
  | { reason: "shape"; message: string; path: readonly (string | number)[]; parsed: unknown };

export type GuardedJson = { ok: true; value: unknown } | { ok: false; refusal: JsonRefusal };

export interface JsonGuardOptions {
  /** Bytes of UTF-8 the body may hold (the route's body cap). Default: no limit here. */
  maxBytes?: number;
  /** How a refusal names the body: `body`, `params`, `the webhook body`. */
  where?: string;
}

/** The bytes `text` takes as UTF-8, counted without encoding it (a lone surrogate as U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `text` parsed and checked, or why it was refused. */
export function guardJson(text: string, options: JsonGuardOptions = {}): GuardedJson {
  const { maxBytes, where = "body" } = options;
  // A UTF-8 byte is at most one UTF-16 unit: a short text needs no encoding to be measured.
  if (maxBytes !== undefined && text.length > maxBytes / 3 && utf8Length(text) > maxBytes)
    return refused("size", `The ${where} is larger than ${maxBytes} bytes.`);
  if (text.trim() === "") return refused("empty", `A JSON ${where} is required.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused("syntax", `The ${where} is not valid JSON.`);
  }
  const problem = shapeProblem(value, where);
  if (problem !== null) return { ok: false, refusal: { reason: "shape", ...problem, parsed: value } };
  return { ok: true, value };
}

const refused = (reason: "size" | "empty" | "syntax", message: string): GuardedJson => ({
  ok: false,
  refusal: { reason, message },
});

/** `guardJson`'s value, or its refusal as a `BatonError`: 413 `payload_too_large` for size, else 400. */
export function readGuardedJson(text: string, options: JsonGuardOptions = {}): unknown {
  const guarded = guardJson(text, options);
  if (guarded.ok) return guarded.value;
  const { reason, message } = guarded.refusal;
  throw new BatonError(reason === "size" ? "payload_too_large" : "invalid_request", message);
}
