import { markWindowed } from "../agents/history.js";
import { InvocationContext } from "../agents/invocation-context.js";
import { pluginScopes } from "../agents/plugins.js";
import { asAgentError, BatonError, errorFields } from "../core/errors.js";
import { createEvent, type Event, isFinalResponse } from "../core/event.js";
import { newInvocationId } from "../core/ids.js";
import type { RunRequest, RunServices } from "../core/ports.js";
import type { Session, SessionKey } from "../core/session.js";
import { doubleTextingOf, type SessionStore } from "../core/session-store.js";
import { withLazySignal } from "../core/signal-source.js";
import { type StateMap, scopesOfKeys, TEMP_PREFIX, unionScopes } from "../core/state.js";
import type { OpenSpan, TurnTrace } from "../core/trace.js";
import { findAgentToRun } from "../router/find-agent-to-run.js";
import type { App } from "./app.js";
import { compactAfterTurn } from "./compact-after-turn.js";
import { startHeartbeat } from "./lease-heartbeat.js";
import { rememberTurn } from "./remember-turn.js";
import { StorageCost } from "./storage-cost.js";
import { systemServices } from "./system-services.js";
import { invocationSpanAttributes, TraceRecorder } from "./trace-recorder.js";
import { isCanceledTurn, watchCancel } from "./turn-cancel.js";
import { validateNewMessage } from "./validate-message.js";

export interface RunnerOptions {
  app: App;
  sessionStore: SessionStore;
  /**
   * Clock, ids, sleep, env, model port and log. Each left out is the system one (`systemServices`); this
   * class has no model port by default, the `Runner` of the `baton` entry adds the AI SDK's.
   */
  services?: Partial<RunServices>;
  /**
   * Called with each turn's trace once it is stored (the Worker exports it over OTLP from here). A turn is
   * traced when this is given or its store keeps traces (`listTraces`); otherwise no span is built.
   */
  onTrace?: (trace: TurnTrace) => void;
}

export type { RunRequest } from "../core/ports.js";

/**
 * Runs one invocation: takes the session's turn, routes, runs the agent, stores every non-partial event
 * before yielding it, and turns any failure into a stored error event authored by the failing agent.
 * @example
 * const runner = new Runner({ app, sessionStore: new InMemorySessionStore() });
 * for await (const event of runner.run({ userId: "u", sessionId: "s", newMessage: userText("hi") })) …
 */
export class Runner {
  readonly app: App;
  private readonly store: SessionStore;
  private readonly services: RunServices;
  private readonly onTrace: ((trace: TurnTrace) => void) | undefined;
  /** Whether anyone reads a turn's trace: a store that keeps traces, or `onTrace` (decision 041). */
  private readonly tracing: boolean;

  constructor(options: RunnerOptions) {
    this.app = options.app;
    this.store = options.sessionStore;
    const reminders = options.services?.reminders ?? options.sessionStore.reminders;
    this.services = { ...systemServices(), ...options.services, ...(reminders ? { reminders } : {}) };
    this.onTrace = options.onTrace;
    this.tracing = options.onTrace !== undefined || options.sessionStore.listTraces !== undefined;
  }

  /** Runs one invocation and yields its events. Session and busy errors are thrown before any event. */
  run(request: RunRequest): AsyncGenerator<Event> {
    // The turn begins at the first `next()`, as a generator's body would, without a generator of its own.
    return this.invoke(() => this.begin(request));
  }

  /**
   * Begins the turn now (validation, the user event, the session's lease) and returns its events to
   * iterate. Throws `BatonError` (`invalid_request`, `session_not_found`, `session_busy`) before any
   * work, so an HTTP handler can answer 400/404/409 before it opens a stream. The returned generator
   * releases the lease when it finishes or is closed: iterate it to the end or call `return()`.
   */
  async start(request: RunRequest): Promise<AsyncGenerator<Event>> {
    const begun = await this.begin(request);
    return "joined" in begun ? this.follow(begun) : this.invoke(begun);
  }

  /** Validation, the user event and the session's lease: what `start` does before any event. */
  private async begin(request: RunRequest): Promise<Turn | JoinedTurn> {
    validateNewMessage(request.newMessage);
    const key: SessionKey = { appName: this.app.name, userId: request.userId, sessionId: request.sessionId };
    const invocationId = request.invocationId ?? newInvocationId(this.services.ids);
    const userEventId =
      request.userEventId ?? (request.resume ? await this.storedUserEventId(key, invocationId) : undefined);
    const userEvent = stampMetadata(
      createEvent(
        {
          ...(userEventId === undefined ? {} : { id: userEventId }),
          invocationId,
          author: "user",
          // A literal, not a spread of the message: V8 gave each spread copy a hidden class of its own, and
          // every later read of the stored content was then a slow, generic one.
          content: { role: "user", parts: request.newMessage.parts ?? [] },
          actions: { stateDelta: { ...request.stateDelta } },
        },
        this.services,
      ),
      request.customMetadata,
    );
    const window =
      this.app.maxHistoryEvents === undefined ? undefined : { numRecentEvents: this.app.maxHistoryEvents };
    // Only the shared scopes some agent may touch, or the request writes, are read (docs/scaling.md).
    const scopes =
      this.app.plugins === undefined && request.stateDelta === undefined
        ? this.app.stateScopes
        : unionScopes(
            this.app.stateScopes,
            ...(this.app.plugins ?? []).map(pluginScopes),
            scopesOfKeys(Object.keys(request.stateDelta ?? {})),
          );
    const startedAt = this.services.clock.now();
    const { mode, debounceMs } = doubleTextingOf(this.app.doubleTexting);
    const admission = {
      doubleTexting: mode,
      ...(debounceMs > 0 ? { debounceMs } : {}),
      agent: this.app.rootAgent.name,
    };
    const begun = await this.store.beginTurn(key, userEvent, window, scopes, admission);
    if (begun.joined !== undefined) return { key, joined: begun.joined };
    const { session, lease, resumed, leaseTtlMs } = begun;
    // A full window may begin past the session's first event, and begins later with every turn.
    if (window !== undefined && session.events.length >= window.numRecentEvents) markWindowed(session.events);
    const stored = resumed ? session.events.find((e) => e.id === userEvent.id) : undefined;
    const turnEvent = stored ?? userEvent;
    const trace = this.tracing ? this.startTrace(key, turnEvent, resumed, startedAt) : undefined;
    return { key, lease, leaseTtlMs, session, userEvent: turnEvent, request, resumed, trace };
  }

  /** The turn's recorder, its root span, and what it writes to storage (the root span's attributes). */
  private startTrace(key: SessionKey, userEvent: Event, resumed: boolean, startedAt: number): TurnTracing {
    const recorder = new TraceRecorder(userEvent.invocationId, this.services.clock, this.services.ids);
    const attributes = invocationSpanAttributes(this.app.name, key, userEvent.invocationId);
    const root = recorder.start("invocation", attributes, undefined, startedAt);
    const cost = new StorageCost();
    if (!resumed) cost.add(userEvent);
    return { recorder, root, cost };
  }

  /**
   * A message merged into another's turn (`doubleTexting: "merge"`): that invocation's events, as they are
   * stored, are its answer (nothing when the store cannot follow an invocation).
   */
  private async *follow(turn: JoinedTurn): AsyncGenerator<Event> {
    const events = await this.store.followInvocation?.(turn.key, turn.joined);
    if (events) yield* events;
  }

  /** The turn's events; `begun` is the turn itself (`start`) or how to begin it at the first `next()` (`run`). */
  private async *invoke(begun: Turn | (() => Promise<Turn | JoinedTurn>)): AsyncGenerator<Event> {
    const turn = typeof begun === "function" ? await begun() : begun;
    if ("joined" in turn) {
      yield* this.follow(turn);
      return;
    }
    const { key, lease, session, userEvent, request, trace } = turn;
    const { invocationId } = userEvent;
    const stamp = (event: Event) => stampMetadata(event, request.customMetadata);
    const stopHeartbeat = startHeartbeat(this.store, turn, this.services.log);
    const cancel = watchCancel(this.store, turn, request.signal, this.services.log);
    try {
      if (turn.resumed && invocationEnded(session.events, invocationId)) return;
      applyTemp(session.state, userEvent.actions.stateDelta);
      const rootAgent = this.app.rootAgent;
      const chosen = findAgentToRun(session.events, rootAgent, this.services.log);
      const ctx = new InvocationContext({
        invocationId,
        session,
        rootAgent,
        agent: chosen,
        userContent: userEvent.content ?? request.newMessage,
        runConfig: withLazySignal(
          {
            streaming: request.streaming ?? false,
            maxLlmCalls: this.app.maxLlmCalls ?? 500,
            ...(this.app.plugins ? { plugins: this.app.plugins } : {}),
          },
          "signal",
          cancel,
        ),
        services: this.services,
      });
      if (trace) {
        ctx.recorder = trace.recorder;
        ctx.span = trace.root;
      }
      const persist = async (event: Event): Promise<Event> => {
        applyTemp(session.state, event.actions.stateDelta);
        const stored = await this.store.appendEvent(key, stamp(event), { lease });
        trace?.cost.add(stored);
        session.events.push(stored);
        Object.assign(session.state, stored.actions.stateDelta);
        return stored;
      };
      try {
        for await (const event of chosen.runAsync(ctx)) {
          if (cancel.event) break;
          yield event.partial ? stamp(event) : await persist(event);
        }
        // A canceled turn ends with the cancel event the store recorded (already stored: yielded as is).
        if (cancel.event) {
          yield cancel.event;
          return;
        }
        for (const plugin of this.app.plugins ?? []) await plugin.afterRun?.(ctx);
        const compaction = this.app.eventsCompactionConfig;
        if (compaction) await compactAfterTurn(compaction, { session, persist, ctx, log: this.services.log });
        if (this.app.memory?.addSessionsAutomatically)
          await rememberTurn(session, invocationId, this.services);
      } catch (error) {
        // Whatever broke once the turn was stopped (an aborted call, a refused append) ends it with its cancel
        // event; a refused append can arrive before the watch's answer, which then follows at once.
        const canceled = cancel.event ?? (isCanceledTurn(error) ? await cancel.settled : null);
        if (canceled) {
          yield canceled;
          return;
        }
        // An error no agent claimed is the store's refusal. A lapsed lease is recorded if the session is
        // free (nobody took it over); otherwise nothing more can be recorded.
        if (error instanceof BatonError && error.agentName === undefined) {
          const recorded =
            error.code === "lease_lost" ? await this.recordLostLease(turn, chosen.name, error) : null;
          if (!recorded) throw error;
          yield recorded;
          return;
        }
        const failure = asAgentError(error, chosen.name);
        const author = failure.agentName ?? chosen.name;
        const fields = errorFields(failure);
        this.services.log(`Agent "${author}" failed in ${invocationId}: ${fields.errorMessage}`);
        yield await persist(createEvent({ invocationId, author, ...fields }, this.services));
      }
    } finally {
      stopHeartbeat();
      if (trace) {
        trace.root.end(trace.cost.attributes());
        const finished = trace.recorder.finish();
        await this.store.endTurn(key, lease, finished);
        this.onTrace?.(finished);
      } else await this.store.endTurn(key, lease);
    }
  }

  /** The id of the user event that began a stored invocation (`RunRequest.resume`). */
  private async storedUserEventId(key: SessionKey, invocationId: string): Promise<string> {
    const session = await this.store.getSession(key);
    if (!session) throw new BatonError("session_not_found", "Session not found");
    const first = session.events.find((e) => e.invocationId === invocationId && e.author === "user");
    if (!first)
      throw new BatonError("not_found", `Invocation ${invocationId} is not in session ${key.sessionId}`);
    return first.id;
  }

  /** Stores a `LEASE_LOST` error event without the lease (accepted only while no other turn holds it). */
  private async recordLostLease(turn: Turn, author: string, error: BatonError): Promise<Event | null> {
    const { invocationId } = turn.userEvent;
    const fields = errorFields(new BatonError("LEASE_LOST", error.message));
    const event = stampMetadata(
      createEvent({ invocationId, author, ...fields }, this.services),
      turn.request.customMetadata,
    );
    this.services.log(`Turn ${invocationId} lost its lease: ${error.message}`);
    try {
      return await this.store.appendEvent(turn.key, event);
    } catch {
      return null;
    }
  }
}

interface Turn {
  key: SessionKey;
  lease: string;
  leaseTtlMs: number | undefined;
  session: Session;
  userEvent: Event;
  request: RunRequest;
  /** Absent when nobody reads the turn's trace. */
  trace: TurnTracing | undefined;
  resumed: boolean;
}

/** A message merged into the turn of invocation `joined`: no turn of its own. */
interface JoinedTurn {
  key: SessionKey;
  joined: string;
}

interface TurnTracing {
  recorder: TraceRecorder;
  root: OpenSpan;
  cost: StorageCost;
}

/** A resumed invocation whose last stored event is a final response (not an error) has nothing left to run. */
function invocationEnded(events: readonly Event[], invocationId: string): boolean {
  const last = events.findLast((e) => e.invocationId === invocationId);
  return (
    last !== undefined && last.author !== "user" && isFinalResponse(last) && last.errorCode === undefined
  );
}

/** ADK E03: run-level custom metadata first, the event's own keys win. */
function stampMetadata(event: Event, metadata: Record<string, unknown> | undefined): Event {
  return metadata ? { ...event, customMetadata: { ...metadata, ...event.customMetadata } } : event;
}

/** `temp:` keys live in the invocation's memory only; the store strips them from what it keeps. */
function applyTemp(state: StateMap, delta: StateMap): void {
  for (const [k, v] of Object.entries(delta)) if (k.startsWith(TEMP_PREFIX)) state[k] = v;
}
