// WebSocket frames (RFC 6455) for the tests' Node peers: enough for JSON messages, pings and closes.
import { createHash, randomBytes } from "node:crypto";

export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export interface Frame {
  opcode: number;
  payload: Buffer;
}

/** The `Sec-WebSocket-Accept` answer to a client's `Sec-WebSocket-Key`. */
export const acceptKey = (key: string): string =>
  createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");

/** One whole frame; clients mask what they send, servers do not. */
export function encodeFrame(opcode: number, payload: Buffer, masked: boolean): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (length < 126) head[1] = length;
  else if (length < 65_536) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([head, payload]);
  head[1] = (head[1] ?? 0) | 0x80;
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([head, mask, body]);
}

/** A close frame's payload: the code, then the reason in UTF-8. */
export function closePayload(code: number, reason: string): Buffer {
  const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
  payload.writeUInt16BE(code, 0);
  payload.write(reason, 2);
  return payload;
}

/** Reads frames from a byte stream, joining fragmented messages. */
export class FrameReader {
  private buffer = Buffer.alloc(0);
  private fragments: Frame | undefined;

  push(chunk: Buffer): Frame[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const frames: Frame[] = [];
    for (let frame = this.next(); frame; frame = this.next()) frames.push(...frame);
    return frames;
  }

  private next(): Frame[] | undefined {
    const b = this.buffer;
    if (b.length < 2) return undefined;
    const first = b[0] ?? 0;
    const second = b[1] ?? 0;
    let length = second & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      offset = 10;
    }
    const masked = (second & 0x80) !== 0;
    const mask = masked ? b.subarray(offset, offset + 4) : undefined;
    if (masked) offset += 4;
    if (b.length < offset + length) return undefined;
    const raw = b.subarray(offset, offset + length);
    const payload = mask ? Buffer.from(raw.map((byte, i) => byte ^ (mask[i % 4] ?? 0))) : Buffer.from(raw);
    this.buffer = b.subarray(offset + length);
    const fin = (first & 0x80) !== 0;
    const opcode = first & 0x0f;
    if (opcode >= 8) return [{ opcode, payload }];
    if (opcode !== OPCODE.continuation) this.fragments = { opcode, payload };
    else if (this.fragments)
      this.fragments = { ...this.fragments, payload: Buffer.concat([this.fragments.payload, payload]) };
    if (!fin || !this.fragments) return [];
    const whole = this.fragments;
    this.fragments = undefined;
    return [whole];
  }
}
