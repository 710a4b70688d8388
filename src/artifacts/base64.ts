import { BatonError } from "../core/errors.js";

/** Characters per `String.fromCharCode` call: spreading a whole artifact would overflow the call stack. */
const CHUNK = 0x8000;

/** Bytes to standard base64 (genai's `Blob.data` on the wire). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** Standard or URL-safe base64 to bytes (genai accepts both); a malformed string is a 400 naming `what`. */
export function base64ToBytes(text: string, what: string): Uint8Array<ArrayBuffer> {
  const standard = text.replaceAll("-", "+").replaceAll("_", "/").replace(/\s+/g, "");
  const padded = standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), "=");
  let binary: string;
  try {
    binary = atob(padded);
  } catch (error) {
    throw new BatonError("invalid_request", `${what}: inlineData.data is not base64.`, { cause: error });
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
