/** The byte-level pieces every signature scheme shares: HMAC-SHA256 on Web Crypto, encodings, equality. */

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, copied into a plain ArrayBuffer (what Web Crypto's types ask for). */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(encoder.encode(text));

/** `a` then `b` in one buffer: a scheme's prefix followed by the raw body, byte for byte. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Hex digits to bytes; `null` for anything that is not an even run of hex digits. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Standard base64 to bytes; `null` when malformed. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

const hmacKey = (key: Uint8Array<ArrayBuffer>, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [usage]);

/**
 * Whether `signature` is the HMAC-SHA256 of `message` under `key`. Web Crypto's `verify` compares in
 * constant time, in workerd and in Node alike, so no hand-written comparison is involved.
 */
export async function hmacSha256Matches(
  key: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  return crypto.subtle.verify("HMAC", await hmacKey(key, "verify"), signature, message);
}

/** The HMAC-SHA256 of `message` under `key`. */
export async function hmacSha256(
  key: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(key, "sign"), message));
}

/** Bytes to standard base64. */
export const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** SHA-256 of `bytes`, as lowercase hex. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/**
 * Equality of two secrets without an early exit: both are hashed first, so the comparison runs over two
 * 32-byte digests whatever the inputs' lengths, and no prefix of the secret leaks through timing.
 */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([a, b].map((s) => crypto.subtle.digest("SHA-256", utf8(s))));
  const left = new Uint8Array(x ?? new ArrayBuffer(0));
  const right = new Uint8Array(y ?? new ArrayBuffer(0));
  let diff = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}
