const encoder = new TextEncoder();
/** Reused by every call (they are synchronous): counting bytes allocates nothing for texts up to 64 KiB / 3. */
const scratch = new Uint8Array(64 * 1024);
const NOT_ASCII = /[\u0080-\uffff]/;

/** How many bytes `text` takes as UTF-8 (what a row or a request body holds), without allocating for short texts. */
export function utf8Length(text: string): number {
  // Most texts (a stored event's JSON) are ASCII: one byte per code unit, found without encoding anything.
  if (!NOT_ASCII.test(text)) return text.length;
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so a text this short always fits the scratch buffer.
  if (text.length * 3 <= scratch.length) return encoder.encodeInto(text, scratch).written;
  return encoder.encode(text).byteLength;
}
