import type { Context, MiddlewareHandler } from "hono";
import { readStreamCapped } from "../runner/capped-stream.js";

/**
 * How much of an oversized body is still read (and dropped) before the stream is cancelled. Reading the
 * rest leaves the connection clean for its next request: under `wrangler dev` (4.84) a 413 sent while a
 * chunked body is still arriving leaves that connection hanging, and `cancel()` alone does not help
 * (docs/decisions/029). Past this, the sender is abusive and its connection is given up.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** Reads `stream` whole, up to `maxBytes`; past that, drains up to `DRAIN_MAX_BYTES` and returns `null`. */
export const readCapped = (stream: ReadableStream<Uint8Array>, maxBytes: number) =>
  readStreamCapped(stream, maxBytes, drain);

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: number): Promise<void> {
  let size = read;
  while (size <= DRAIN_MAX_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
  }
  await reader.cancel();
}

/**
 * Reads every request body before anything answers (auth refusals included), capped at `maxBytes`: an
 * oversized one gets `tooLarge` once its rest has been read and dropped; otherwise the request goes on
 * with the bytes in hand, so handlers read them as usual (`c.req.text()`, `arrayBuffer()`, `raw`). A body
 * its `Content-Length` bounds within `maxBytes` goes on as it came (`boundedBy`): nothing to cap or drain.
 */
export function cappedBody(maxBytes: number, tooLarge: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null || raw.bodyUsed || read.has(raw)) return next();
    if (boundedBy(raw.headers, maxBytes)) {
      read.add(raw);
      return next();
    }
    const bytes = await readCapped(raw.body, maxBytes);
    if (bytes === null) return tooLarge(c);
    // GET and HEAD cannot carry a body onward: it was read, so the connection is clean, and it is dropped.
    const withBody = raw.method === "GET" || raw.method === "HEAD" ? raw : new Request(raw, { body: bytes });
    read.add(withBody);
    c.req.raw = withBody;
    await next();
  };
}

/**
 * Whether the body is bounded by its framing already: a plain `Content-Length` within `maxBytes`, with no
 * `Transfer-Encoding` or `Content-Encoding` beside it. HTTP delivers exactly that many bytes (whatever
 * else the sender writes is another request), so reading it here first would only copy it, and an answer
 * given before the handler reads it leaves nothing arriving on the connection. Anything else (chunked, a
 * coded body, a length over the cap or unreadable) is read and capped.
 */
function boundedBy(headers: Headers, maxBytes: number): boolean {
  const length = headers.get("content-length");
  if (length === null || !/^\d{1,16}$/.test(length) || Number(length) > maxBytes) return false;
  if (headers.has("transfer-encoding")) return false;
  const coding = headers.get("content-encoding");
  return coding === null || coding.trim().toLowerCase() === "identity";
}

/**
 * Requests whose body a `cappedBody` already read, or found bounded within its cap (a second one, mounted for
 * all paths with a smaller cap, lets them pass).
 */
const read = new WeakSet<Request>();
