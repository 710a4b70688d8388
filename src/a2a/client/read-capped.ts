import { readStreamCapped } from "../../runner/capped-stream.js";

/** Reads a response body as text, refusing one larger than `maxBytes` (the body is cancelled). */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new ResponseTooLarge(maxBytes);
  }
  if (!response.body) return "";
  const body = await readStreamCapped(response.body, maxBytes);
  if (body === null) throw new ResponseTooLarge(maxBytes);
  return new TextDecoder().decode(body);
}

/** A response body past the size Baton accepts from a peer. */
export class ResponseTooLarge extends Error {
  override readonly name = "ResponseTooLarge";
  constructor(readonly maxBytes: number) {
    super(`the response is larger than ${maxBytes} bytes`);
  }
}
