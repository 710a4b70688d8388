import type { Content } from "../../core/content.js";
import { BatonError } from "../../core/errors.js";
import type { LiveBlob, LiveConnection, LiveResponse } from "../../core/live-model.js";
import { LiveResponses } from "./live-responses.js";
import { closeErrorCode, closeMessage, type LiveSocket } from "./live-socket.js";
import { frameText, parseServerMessage } from "./server-message.js";

/** Codes a peer may not send back in a close frame; the echo uses 1000 instead. */
const NORMAL_CLOSES = new Set([1000, 1005]);

/**
 * One Gemini Live session over an accepted socket. `ready` settles on `setupComplete` (or rejects when
 * Gemini closes before it); then `receive()` yields the session's answers until it closes.
 */
export class GeminiLiveConnection implements LiveConnection {
  readonly ready: Promise<void>;
  private setupDone = false;
  private closed = false;
  private ended = false;
  private readonly queue: LiveResponse[] = [];
  private waiting: (() => void)[] = [];
  private readonly responses = new LiveResponses();
  private inbox: Promise<void> = Promise.resolve();
  private handle: string | undefined;
  private settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  /** Gemini 3's Flash Live models take user text and history differently (ADK's `isGemini3xFlashLive`). */
  private readonly gemini3: boolean;

  constructor(
    private readonly socket: LiveSocket,
    private readonly modelName: string,
  ) {
    this.gemini3 = /^(models\/)?gemini-3\.[^/]*-flash-live/.test(modelName);
    this.ready = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Frames are handled in arrival order, the close after them, even when one must be read as a Blob.
    socket.addEventListener("message", (event: { data: unknown }) => {
      const text = frameText(event.data);
      this.inOrder(
        typeof text === "object" ? () => text.then((t) => this.onMessage(t)) : () => this.onMessage(text),
      );
    });
    socket.addEventListener("close", (event: { code: number; reason: string }) =>
      this.inOrder(() => this.onClose(event.code, event.reason)),
    );
    socket.addEventListener("error", () => this.inOrder(() => this.onClose(1006, "the socket failed")));
  }

  /** The newest handle Gemini gave for resuming this session (`connect({ resumptionHandle })`). */
  get resumptionHandle(): string | undefined {
    return this.handle;
  }

  /** Refuses the session before it is ready (an abort, a setup that never completes). */
  fail(error: unknown): void {
    this.settle?.reject(error);
    this.settle = undefined;
    void this.close();
  }

  async sendHistory(history: Content[]): Promise<void> {
    // As ADK: only the text of the history is replayed; the model answers when the user spoke last.
    const turns = history.flatMap((content) => {
      const parts = (content.parts ?? []).filter((part) => part.text !== undefined && !part.thought);
      return parts.length > 0
        ? [{ role: content.role ?? "user", parts: parts.map(({ text }) => ({ text })) }]
        : [];
    });
    const last = turns.at(-1);
    if (!last) return;
    // Gemini 3 Live takes the history as context only when the turn is marked complete (ADK does the same).
    this.send({ clientContent: { turns, turnComplete: this.gemini3 || last.role === "user" } });
  }

  async sendContent(content: Content): Promise<void> {
    const parts = content.parts ?? [];
    if (parts.length === 0)
      throw new BatonError("MODEL_BAD_REQUEST", "A live content needs at least one part.");
    const functionResponses = parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    if (functionResponses.length > 0) {
      // Gemini matches each response to its call by the id it gave the call.
      this.send({ toolResponse: { functionResponses } });
      return;
    }
    const [only] = parts;
    if (this.gemini3 && parts.length === 1 && only?.text !== undefined) {
      // Gemini 3 Live answers text sent as real-time input, as it answers speech.
      this.send({ realtimeInput: { text: only.text } });
      return;
    }
    this.send({ clientContent: { turns: [{ role: content.role ?? "user", parts }], turnComplete: true } });
  }

  async sendRealtime(blob: LiveBlob): Promise<void> {
    const media = { mimeType: blob.mimeType, data: blob.data };
    if (blob.mimeType.startsWith("audio/")) this.send({ realtimeInput: { audio: media } });
    else if (blob.mimeType.startsWith("image/") || blob.mimeType.startsWith("video/"))
      this.send({ realtimeInput: { video: media } });
    else
      throw new BatonError(
        "MODEL_BAD_REQUEST",
        `Gemini Live takes audio or video in real time, not '${blob.mimeType}'.`,
      );
  }

  async sendActivityStart(): Promise<void> {
    this.send({ realtimeInput: { activityStart: {} } });
  }

  async sendActivityEnd(): Promise<void> {
    this.send({ realtimeInput: { activityEnd: {} } });
  }

  async *receive(): AsyncIterable<LiveResponse> {
    while (true) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
      });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Gemini closed first: the handshake was answered then.
    if (this.ended) return;
    try {
      this.socket.close(1000, "client closed the session");
    } catch (error) {
      // The socket is already closing (Gemini closed first); the session ends either way.
      void error;
    }
    this.end([]);
  }

  /** Sends setup; the socket is open, so `send` cannot be refused for a closed session yet. */
  sendSetup(setup: unknown): void {
    this.send(setup);
  }

  private send(message: unknown): void {
    const closed = `The Gemini Live session of ${this.modelName} is closed`;
    if (this.closed || this.ended) throw new BatonError("MODEL_UNAVAILABLE", `${closed}.`);
    try {
      this.socket.send(JSON.stringify(message));
    } catch (error) {
      // The socket closed before its close event reached the session.
      throw new BatonError(
        "MODEL_UNAVAILABLE",
        `${closed}: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  private inOrder(task: () => void | Promise<void>): void {
    this.inbox = this.inbox.then(task).catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      this.end([
        { errorCode: "MODEL_ERROR", errorMessage: `Gemini Live's frame could not be read: ${detail}` },
      ]);
    });
  }

  private onMessage(text: string | undefined): void {
    if (this.ended) return;
    const message = parseServerMessage(text);
    if ("invalid" in message) {
      this.push([{ errorCode: "MODEL_ERROR", errorMessage: `Gemini Live sent ${message.invalid}.` }]);
      return;
    }
    if (message.setupComplete && !this.setupDone) {
      this.setupDone = true;
      this.settle?.resolve();
      this.settle = undefined;
    }
    const responses = this.responses.read(message);
    for (const response of responses) {
      const update = response.liveSessionResumptionUpdate;
      if (update?.newHandle && update.resumable !== false) this.handle = update.newHandle;
    }
    this.push(responses);
  }

  private onClose(code: number, reason: string): void {
    if (this.ended) return;
    try {
      // Completes the closing handshake when Gemini closed first.
      this.socket.close(NORMAL_CLOSES.has(code) || code === 1006 ? 1000 : code, "");
    } catch (error) {
      // Already closed from this side too.
      void error;
    }
    const failure = new BatonError(closeErrorCode(code, reason), closeMessage(code, reason));
    if (!this.setupDone) {
      this.settle?.reject(failure);
      this.settle = undefined;
      this.end([]);
      return;
    }
    this.end(
      NORMAL_CLOSES.has(code) || this.closed
        ? []
        : [{ errorCode: failure.code, errorMessage: failure.message }],
    );
  }

  private push(responses: LiveResponse[]): void {
    this.queue.push(...responses);
    this.wakeReaders();
  }

  private wakeReaders(): void {
    const readers = this.waiting;
    this.waiting = [];
    for (const wake of readers) wake();
  }

  private end(last: LiveResponse[]): void {
    if (this.ended) return;
    this.push([...this.responses.end(), ...last]);
    this.ended = true;
    this.wakeReaders();
  }
}
