import { BatonError, type ErrorCode } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { SessionKey } from "../core/session.js";
import { errorFrame, framesText } from "../core/sse-frames.js";
import type { SessionObject } from "../objects/session-object.js";
import type { ScheduledConcern } from "../storage/alarm-dispatcher.js";
import { LineStream } from "../storage/feed-lines.js";
import { ok, type RpcResult, refuse } from "../storage/rpc-result.js";
import type { ResumedTurn } from "./resume-concern.js";
import { type ObjectTurnRequest, SSE_CONTENT_TYPE, turnHost } from "./turn-hosts.js";

/** One line of a turn's stream from its object: an event, or the failure that ended the turn. */
export type TurnLine = { event: Event } | { error: { code?: ErrorCode; name: string; message: string } };

/** A turn begun in the object: its lines as NDJSON, and the id that ends the stream from the reader's side. */
export interface ObjectTurnStream {
  stream: ReadableStream<Uint8Array>;
  streamId: string;
}

/**
 * A turn's answer from its object: `lines` first (each one `TurnLine`'s JSON text, as the NDJSON line
 * carries it), then those on the `rest` stream, if there is one. A streamed turn answers at once, all on
 * the stream; a turn run to its end answers its lines once it ended, and only past `WHOLE_TURN_MAX_CHARS`
 * those so far and the rest on a stream.
 */
export interface ObjectTurnLines {
  lines: string[];
  rest?: ObjectTurnStream;
}

/**
 * The most JSON characters of lines one answer carries (at most 2 bytes each in the RPC message): well
 * inside Workers RPC's 32 MiB limit on a serialized message.
 */
export const WHOLE_TURN_MAX_CHARS = 8 * 1024 * 1024;

/** Where a running turn's lines go. */
interface LineSink {
  send(line: TurnLine): void;
  close(): void;
}

/**
 * While a turn runs in the object, its alarm fires at least this often: an object with an event due is not
 * evicted for being idle (Cloudflare evicts an object after 70–140 s without requests or events), so the
 * turn outlives every client (decision 040).
 */
export const TURN_BEAT_MS = 30_000;

/** The turn host that ran the session's turns here, kept so a restarted object can resume one itself. */
const HOST_KEY = "turn:host";

/**
 * Turns that run inside the session's object (decision 040): the object starts the turn with the app its
 * Worker registered (`TurnHost`), keeps it running whatever becomes of the reader, and streams its events
 * as NDJSON lines. Plain data and callbacks only, per object.
 */
export class ObjectTurns {
  #running = 0;
  #beatAt: number | null = null;
  readonly #streams = new Map<string, () => void>();
  readonly #idle: (() => void)[] = [];
  #env: { vars: string; env: Record<string, unknown> } | undefined;
  /** What `HOST_KEY` holds, once read or written by this lifetime of the object. */
  #storedHost: string | undefined;

  constructor(
    private readonly options: {
      env: Record<string, unknown>;
      /** Keeps work alive past the request that began it (`DurableObjectState.waitUntil`). */
      keepAlive: (work: Promise<unknown>) => void;
      /** The object's synchronous key-value storage (the host it last ran a turn with). */
      kv: SyncKvStorage;
      /** The object the turns run in, and how its store names it. */
      inside: (appName: string, run: ObjectTurnRequest["run"]) => { name: string; object: SessionObject };
      /** Whether a turn holds the session's lease now. */
      turnRuns: () => boolean;
      now: () => number;
    },
  ) {}

  /**
   * The keep-alive beat: due `TURN_BEAT_MS` after it was armed while a turn begun here holds the session;
   * it has nothing to do when it fires but to be armed again. Once no such turn runs it wants no alarm,
   * so the turn's end (which reschedules) deletes it as it did before.
   */
  readonly beat: ScheduledConcern = {
    nextAlarmAt: () => {
      if (this.#running === 0 || !this.options.turnRuns()) this.#beatAt = null;
      else this.#beatAt ??= this.options.now() + TURN_BEAT_MS;
      return this.#beatAt;
    },
    onAlarm: async () => {
      this.#beatAt = null;
    },
  };

  /**
   * Begins the turn (its refusals answered as results, before any event) and answers its lines: at once on
   * a stream, or (`toEnd`, what `/run` asks for) all of them once it ended, with no stream to set up and
   * read a line at a time. The turn runs to its end even when the reader cancels or stops (`stop`): it
   * stores every event either way. `null` when no host is registered under `input.host` in this isolate (a
   * `createWorker` not called at the script's top level): the Worker then runs the turn itself.
   */
  async run(input: ObjectTurnRequest, toEnd?: boolean): Promise<RpcResult<ObjectTurnLines | null>> {
    const host = turnHost(input.host);
    if (!host) return ok(null);
    this.remember(input.host);
    this.#running += 1;
    let turn: AsyncGenerator<Event>;
    try {
      const inside = this.options.inside(input.appName, input.run);
      turn = await host.start(this.#envWith(input.vars), input, this.options.keepAlive, inside);
    } catch (error) {
      this.#running -= 1;
      if (error instanceof BatonError && error.kind === "refusal") return refuse(error);
      throw error;
    }
    const answer = new Promise<ObjectTurnLines>((resolve) => {
      const lines: string[] = [];
      let chars = 0;
      let rest: LineStream<TurnLine> | undefined;
      const spill = (): LineStream<TurnLine> => {
        const streamId = crypto.randomUUID();
        const close = () => this.#streams.delete(streamId);
        const stream = new LineStream<TurnLine>(close, input.sse && sseText(input.sse.functionCallEventId));
        this.#streams.set(streamId, () => stream.close());
        rest = stream;
        resolve({ lines, rest: { stream: stream.readable, streamId } });
        return stream;
      };
      if (!toEnd) spill();
      const sink: LineSink = {
        send: (line) => {
          if (rest) return rest.send(line);
          const text = JSON.stringify(line);
          chars += text.length;
          // The line that would pass the bound goes on the stream: the answer never carries more.
          if (chars <= WHOLE_TURN_MAX_CHARS) lines.push(text);
          else spill().send(line);
        },
        close: () => (rest ? rest.close() : resolve({ lines })),
      };
      this.options.keepAlive(this.#drain(turn, sink));
    });
    return ok(await answer);
  }

  /**
   * `/run_sse`'s turn, asked for over the object's `fetch` (decision 045): its SSE frames as the response
   * body, which workerd streams to the Worker with no RPC stream between; a refusal, or `null` for a host
   * this isolate lacks, as the `RpcResult`'s JSON. A reader that leaves cancels the body, which ends the
   * stream here; the turn runs on.
   */
  async sse(input: ObjectTurnRequest): Promise<Response> {
    const begun = await this.run({ ...input, sse: input.sse ?? {} });
    const stream = begun.ok ? begun.value?.rest?.stream : undefined;
    if (!stream) return Response.json(begun.ok ? ok(null) : begun);
    return new Response(stream, { headers: { "content-type": SSE_CONTENT_TYPE } });
  }

  /**
   * Resumes a turn that died (`resumeConcern`) here, with the host that ran this session's turns and the
   * object's own env; nothing reads its events, which it stores. `false` when that host is not in this
   * isolate, or the session refused the turn.
   */
  async resume(turn: ResumedTurn): Promise<boolean> {
    const host = this.#hostStored();
    if (host === undefined || !turnHost(host)) return false;
    const { key, message, invocationId, userEventId } = turn;
    const run = {
      userId: key.userId,
      sessionId: key.sessionId,
      newMessage: message,
      invocationId,
      userEventId,
    };
    const begun = await this.run({ host, appName: key.appName, run, vars: {} });
    if (!begun.ok || !begun.value) return false;
    await begun.value.rest?.stream.cancel();
    return true;
  }

  /** Keeps `host` as the one that runs this session's turns (written only when it changes). */
  remember(host: string): void {
    if (this.#hostStored() === host) return;
    this.options.kv.put(HOST_KEY, host);
    this.#storedHost = host;
  }

  /** Whether this object can run a turn itself: it knows the host that ran its turns, in this isolate. */
  canRunHere(): boolean {
    const host = this.#hostStored();
    return host !== undefined && turnHost(host) !== undefined;
  }

  /**
   * Runs a turn that waited in line when the object restarted (`waitingConcern`), here, under its own ids:
   * its begin takes its place back in the line. Not awaited: it may wait long. `gone` is told when it could
   * not even wait (refused, or no host), so its row goes.
   */
  runWaiting(key: SessionKey, event: Event, gone: (why: string) => void): void {
    const host = this.#hostStored();
    if (host === undefined) {
      gone("no app is known to run it");
      return;
    }
    const run = {
      userId: key.userId,
      sessionId: key.sessionId,
      newMessage: event.content ?? { role: "user", parts: [] },
      ...(Object.keys(event.actions.stateDelta).length > 0 ? { stateDelta: event.actions.stateDelta } : {}),
      ...(event.customMetadata ? { customMetadata: event.customMetadata } : {}),
      invocationId: event.invocationId,
      userEventId: event.id,
    };
    const started = this.run({ host, appName: key.appName, run, vars: {} }).then(
      async (begun) => {
        if (!begun.ok) gone(begun.message);
        else if (!begun.value) gone("its app is not in this isolate");
        else await begun.value.rest?.stream.cancel();
      },
      (error: unknown) => gone(String(error)),
    );
    this.options.keepAlive(started);
  }

  /** Resolves once no turn runs in the object (at once when none does). */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Ends a turn's stream from the reader's side; the turn runs on. */
  stop(streamId: string): void {
    this.#streams.get(streamId)?.();
  }

  async #drain(turn: AsyncGenerator<Event>, lines: LineSink): Promise<void> {
    try {
      for await (const event of turn) lines.send({ event });
    } catch (error) {
      lines.send({ error: wireError(error) });
    } finally {
      this.#running -= 1;
      lines.close();
      if (this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** The host this session's turns last ran with, read from storage once per lifetime of the object. */
  #hostStored(): string | undefined {
    this.#storedHost ??= this.options.kv.get<string>(HOST_KEY);
    return this.#storedHost;
  }

  /** The object's env with the Worker's vars over it; the same object while the vars stay the same. */
  #envWith(vars: Record<string, string>): Record<string, unknown> {
    const key = JSON.stringify(vars);
    if (this.#env?.vars !== key) this.#env = { vars: key, env: { ...this.options.env, ...vars } };
    return this.#env.env;
  }
}

/** The failure a `TurnLine` reports, as the error it was (a `BatonError` with its code, or a named `Error`). */
export function lineError(error: { code?: ErrorCode; name: string; message: string }): Error {
  const { code, name, message } = error;
  return code === undefined ? Object.assign(new Error(message), { name }) : new BatonError(code, message);
}

/**
 * A line as `/run_sse` frames it: an event's frames, or the error frame of the failure that ended the turn,
 * the same text the Worker made of the line before (`handlers/sse-response.ts`).
 */
const sseText =
  (functionCallEventId: string | undefined) =>
  (line: TurnLine): string => {
    try {
      return "event" in line
        ? framesText(line.event, functionCallEventId)
        : errorFrame(lineError(line.error));
    } catch (error) {
      return errorFrame(error);
    }
  };

const wireError = (error: unknown): { code?: ErrorCode; name: string; message: string } => ({
  ...(error instanceof BatonError ? { code: error.code } : {}),
  name: error instanceof Error ? error.name : "Error",
  message: error instanceof Error ? error.message : String(error),
});
