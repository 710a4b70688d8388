// A `/run_live` client for workerd tests: the Worker's 101 answer's socket, its events as they come, its close.
import { expect } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { Call } from "../support/http.js";

export interface LiveSocket {
  /** Every event received so far, in order. */
  readonly seen: Event[];
  send(request: unknown): void;
  sendRaw(text: string): void;
  /** The events from the first not yet read up to the first that matches `last` (waits for it). */
  until(last: (event: Event) => boolean, timeoutMs?: number): Promise<Event[]>;
  /** Resolves with the server's close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens `/run_live?<query>` on `call`'s Worker; fails unless it answers 101 with a socket. */
export async function openLive(call: Call, query: string): Promise<LiveSocket> {
  const response = await call(`/run_live?${query}`, { headers: { upgrade: "websocket" } });
  expect(response.status, response.status === 101 ? "" : await response.text()).toBe(101);
  const socket = response.webSocket;
  if (!socket) throw new Error("The 101 answer has no webSocket.");
  socket.accept();
  const seen: Event[] = [];
  let read = 0;
  let wake: (() => void) | undefined;
  socket.addEventListener("message", (message) => {
    // SAFETY: the server sends ADK events as JSON text; the tests check their fields.
    seen.push(JSON.parse(String(message.data)) as Event);
    wake?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener("close", (event) => {
      resolve({ code: event.code, reason: event.reason });
      wake?.();
    });
  });
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
  });
  return {
    seen,
    closed,
    send: (request) => socket.send(JSON.stringify(request)),
    sendRaw: (text) => socket.send(text),
    close: () => socket.close(1000, "done"),
    async until(last, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = seen.slice(read).findIndex(last);
        if (index >= 0) {
          const events = seen.slice(read, read + index + 1);
          read += index + 1;
          return events;
        }
        if (isClosed) throw new Error(`The socket closed first; seen: ${JSON.stringify(seen.slice(read))}`);
        if (Date.now() > deadline)
          throw new Error(`No such event in ${timeoutMs} ms; seen: ${JSON.stringify(seen.slice(read))}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
  };
}
