import { BatonError } from "../core/errors.js";
import type { SessionKey } from "../core/session.js";
import type { SessionObject } from "../objects/session-object.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { sessionObjectName } from "../storage/object-names.js";
import { LiveCall } from "./live-call.js";
import { liveHost } from "./live-hosts.js";
import { closeReason, LIVE_CLOSE, type LiveOptions, readLiveRequest } from "./live-request.js";

/** Where a session object's `fetch` takes a live call's WebSocket upgrade (never resolved: a stub's `fetch`). */
export const LIVE_URL = "https://session-object/live";
/** The header that carries the call's `LiveAdmission` from the Worker to the object. */
export const LIVE_HEADER = "x-baton-live";
/** The hibernation tag of live sockets (`ctx.getWebSockets(LIVE_TAG)`). */
const LIVE_TAG = "live";

/** A live request may hold this many bytes (a base64 audio chunk of a few seconds fits many times). */
export const DEFAULT_LIVE_MAX_MESSAGE_BYTES = 1024 * 1024;
/** A call with no request for this long ends. */
export const DEFAULT_LIVE_IDLE_TIMEOUT_MS = 10 * 60_000;

/**
 * What the Worker admitted (auth, app, session checked), kept on the socket (its attachment, at most 2 KiB)
 * so a woken object goes on; the Worker's vars come beside it (`LiveUpgrade`) and are not kept: a woken
 * object runs the call with its own env, which a deploy gives the same vars.
 */
export interface LiveAdmission {
  host: string;
  key: SessionKey;
  options: LiveOptions;
  invocationId: string;
}

/** What a live socket carries: the admission, its limits, and when its last message came. */
interface LiveAttachment extends LiveAdmission {
  idleMs: number;
  maxMessageBytes: number;
  lastActive: number;
}

/** The header's JSON: the admission and the Worker's string vars. */
export interface LiveUpgrade extends LiveAdmission {
  vars: Record<string, string>;
}

const numberSetting = (env: Record<string, unknown>, name: string, fallback: number): number => {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/**
 * A session object's live calls over the WebSocket Hibernation API: the object accepts the socket (so a
 * quiet call costs no duration), keeps what the call was admitted with as the socket's attachment, and
 * routes each message to the socket's `LiveCall`, opening it again when the object woke without it. One
 * live call per session: a newer one takes over, and the older socket closes with `LIVE_CLOSE.replaced`.
 */
export class LiveSockets {
  readonly #calls = new Map<WebSocket, Promise<LiveCall | undefined>>();

  constructor(
    private readonly state: DurableObjectState,
    private readonly env: Record<string, unknown>,
    private readonly object: SessionObject,
    /** Sets the object's alarm again (`AlarmDispatcher.reschedule`), once a call's idle deadline exists. */
    private readonly reschedule: () => Promise<void>,
  ) {}

  /**
   * The idle timeout as one of the object's alarm concerns, from the sockets' attachments: no timer keeps a
   * quiet call's object awake. The alarm may fire before a deadline that messages moved; it is set again.
   */
  readonly idle: ScheduledConcern = {
    nextAlarmAt: () => {
      const deadlines = this.#sockets().map(({ attachment: a }) => a.lastActive + a.idleMs);
      return deadlines.length > 0 ? Math.min(...deadlines) : null;
    },
    onAlarm: async (now) => {
      for (const { socket, attachment: a } of this.#sockets())
        if (a.lastActive + a.idleMs <= now)
          this.#drop(socket, LIVE_CLOSE.idle, `No message for ${a.idleMs / 1000} s.`);
    },
  };

  #sockets(): { socket: WebSocket; attachment: LiveAttachment }[] {
    // Only open ones: a socket closed here may be listed until its client answers the close.
    return this.state.getWebSockets(LIVE_TAG).flatMap((socket) => {
      if (socket.readyState !== WebSocket.OPEN) return [];
      // SAFETY: only `accept` attaches to a live socket, always a `LiveAttachment`.
      const attachment = socket.deserializeAttachment() as LiveAttachment | null;
      return attachment ? [{ socket, attachment }] : [];
    });
  }

  /** The object's answer to the Worker's upgrade: 101 with the client's end of a new socket. */
  accept(request: Request): Response {
    const header = request.headers.get(LIVE_HEADER);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || header === null)
      return Response.json({ detail: "Expected a WebSocket upgrade." }, { status: 426 });
    // SAFETY: only a Worker holding this object's binding reaches its fetch; it wrote this header (`live.ts`).
    const { vars, ...admission } = JSON.parse(header) as LiveUpgrade;
    for (const older of this.state.getWebSockets(LIVE_TAG)) {
      this.#drop(older, LIVE_CLOSE.replaced, "Replaced by a newer live connection to this session.");
    }
    const env = { ...this.env, ...vars };
    const attachment: LiveAttachment = {
      ...admission,
      idleMs: numberSetting(env, "LIVE_IDLE_TIMEOUT_MS", DEFAULT_LIVE_IDLE_TIMEOUT_MS),
      maxMessageBytes: numberSetting(env, "LIVE_MAX_MESSAGE_BYTES", DEFAULT_LIVE_MAX_MESSAGE_BYTES),
      lastActive: Date.now(),
    };
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.state.acceptWebSocket(server, [LIVE_TAG]);
    server.serializeAttachment(attachment);
    this.#calls.set(server, this.#open(server, attachment, env));
    void this.reschedule();
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A message on a live socket (the Hibernation API's `webSocketMessage`). */
  async message(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // SAFETY: as in `#sockets`.
    const attachment = socket.deserializeAttachment() as LiveAttachment | null;
    if (attachment) socket.serializeAttachment({ ...attachment, lastActive: Date.now() });
    const call = await this.#callOf(socket, attachment);
    const request = readLiveRequest(message, attachment?.maxMessageBytes ?? DEFAULT_LIVE_MAX_MESSAGE_BYTES);
    if ("code" in request) {
      if (call) await call.end(request.code, request.reason);
      else socket.close(request.code, request.reason);
      return;
    }
    await call?.request(request);
  }

  /** The client closed or the socket failed: the call ends; what it stored stays. */
  async closed(socket: WebSocket): Promise<void> {
    const call = await this.#calls.get(socket);
    this.#calls.delete(socket);
    await call?.end();
  }

  #callOf(socket: WebSocket, attachment: LiveAttachment | null): Promise<LiveCall | undefined> {
    const known = this.#calls.get(socket);
    if (known) return known;
    // The object woke from hibernation without its calls: the socket's attachment opens it again, with the
    // object's own env (a deploy's vars are the Worker's).
    const opened = attachment ? this.#open(socket, attachment, this.env) : Promise.resolve(undefined);
    this.#calls.set(socket, opened);
    return opened;
  }

  async #open(
    socket: WebSocket,
    attachment: LiveAttachment,
    env: Record<string, unknown>,
  ): Promise<LiveCall | undefined> {
    const sink = {
      send: (text: string) => socket.send(text),
      close: (code: number, reason: string) => {
        this.#calls.delete(socket);
        try {
          socket.close(code, reason);
        } catch {
          // Already closed by the client.
        }
      },
    };
    try {
      const host = liveHost(attachment.host);
      if (!host)
        throw new BatonError("MODEL_CONFIG", "This object's isolate does not hold the Worker's apps.");
      const { key, invocationId, options, maxMessageBytes } = attachment;
      const inside = { name: sessionObjectName(key), object: this.object };
      const deps = host(env, key.appName, inside);
      return await LiveCall.open(deps, key, invocationId, { ...options, maxMessageBytes }, sink);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sink.close(LIVE_CLOSE.internal, closeReason(message));
      return undefined;
    }
  }

  #drop(socket: WebSocket, code: number, reason: string): void {
    const call = this.#calls.get(socket);
    this.#calls.delete(socket);
    if (call) void call.then((c) => c?.end(code, reason));
    else {
      try {
        socket.close(code, reason);
      } catch {
        // Already closed.
      }
    }
  }
}
