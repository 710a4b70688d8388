/**
 * Base64 for A2A raw parts with the Web platform's `atob`/`btoa`, which Workers and Node both have:
 * `Buffer` is Node's, and a Worker built without `nodejs_compat` (or a consumer type-checking without
 * `@types/node`) has none.
 */

/** Bytes per `String.fromCharCode` call: spreading a whole image as arguments overflows the stack. */
const CHUNK = 0x8000;

/** Bytes as standard base64. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(at, at + CHUNK));
  }
  return btoa(binary);
}

/**
 * Base64 text as bytes, as leniently as Node's `Buffer.from(text, "base64")` reads it: base64url letters,
 * whitespace and missing padding are accepted (genai's `inlineData.data` arrives in either alphabet).
 */
export function base64ToBytes(text: string): Uint8Array {
  const standard = text.replace(/\s+/g, "").replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "");
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
