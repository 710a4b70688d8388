// A `fetch` for Node 20 tests that opens WebSockets the way workerd's does: `Upgrade: websocket` in the
// request headers, a 101 answer carrying `webSocket` (accept, send, close, addEventListener).
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { closePayload, encodeFrame, FrameReader, OPCODE } from "./ws-frames.js";

type Listener = (event: Record<string, unknown>) => void;

/** The client side of one upgraded socket, shaped as workerd's `WebSocket`. */
class NodeClientSocket {
  private readonly listeners = new Map<string, Listener[]>();
  private closeSent = false;
  private closeSeen = false;

  constructor(
    private readonly socket: Socket,
    private readonly head: Buffer,
  ) {}

  accept(): void {
    const reader = new FrameReader();
    const onData = (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (frame.opcode === OPCODE.text) this.emit("message", { data: frame.payload.toString("utf8") });
        else if (frame.opcode === OPCODE.binary) {
          const bytes = frame.payload;
          this.emit("message", {
            data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
          });
        } else if (frame.opcode === OPCODE.ping) this.write(OPCODE.pong, frame.payload);
        else if (frame.opcode === OPCODE.close) {
          const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
          this.closed(code, frame.payload.subarray(2).toString("utf8"));
        }
      }
    };
    this.socket.on("data", onData);
    this.socket.on("close", () => this.closed(1006, ""));
    this.socket.on("error", () => this.emit("error", {}));
    if (this.head.length > 0) queueMicrotask(() => onData(this.head));
  }

  send(message: string): void {
    if (this.closeSent || this.socket.destroyed) throw new TypeError("WebSocket is closed");
    this.write(OPCODE.text, Buffer.from(message));
  }

  close(code = 1000, reason = ""): void {
    if (this.closeSent) return;
    this.closeSent = true;
    if (!this.socket.destroyed) this.write(OPCODE.close, closePayload(code, reason));
    this.socket.end();
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  private closed(code: number, reason: string): void {
    if (this.closeSeen) return;
    this.closeSeen = true;
    this.emit("close", { code, reason });
  }

  private write(opcode: number, payload: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(encodeFrame(opcode, payload, true));
  }

  private emit(type: string, event: Record<string, unknown>): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** Opens `http://` WebSockets only (the tests' servers are on 127.0.0.1); other requests are refused. */
export const nodeWebSocketFetch = ((input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(init?.headers);
  if (headers.get("upgrade") !== "websocket") throw new TypeError("nodeWebSocketFetch only opens WebSockets");
  const signal = init?.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      // Each socket its own connection: an upgraded socket is never returned to a pool.
      agent: false,
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      headers: {
        ...Object.fromEntries(headers),
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
        "Sec-WebSocket-Version": "13",
      },
    });
    const abort = () => {
      request.destroy();
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    request.on("upgrade", (_response, socket: Socket, head: Buffer) => {
      signal?.removeEventListener("abort", abort);
      // SAFETY: the port reads only `status`, `ok`, `webSocket` and `text()` of an upgrade's answer.
      resolve({
        status: 101,
        ok: false,
        webSocket: new NodeClientSocket(socket, head),
        text: async () => "",
      } as unknown as Response);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 500 })),
      );
    });
    request.on("error", reject);
    request.end();
  });
}) as typeof fetch;
