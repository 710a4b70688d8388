import { CallbackContext } from "../agents/callback-context.js";
import { InvocationContext } from "../agents/invocation-context.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { buildLlmRequest } from "../agents/llm-request-builder.js";
import { stepTools } from "../agents/model-agent-config.js";
import { runFunctionCalls } from "../agents/tool-execution.js";
import { type Content, functionCallsOf } from "../core/content.js";
import { BatonError, errorFields } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import type { LiveConnection, LiveModel, LiveResponse } from "../core/live-model.js";
import type { ModelSpec } from "../core/llm.js";
import type { RunServices } from "../core/ports.js";
import type { SessionKey } from "../core/session.js";
import type { SessionStore } from "../core/session-store.js";
import { findAgentToRun } from "../router/find-agent-to-run.js";
import type { App } from "../runner/app.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
import { liveEventFields, storedForm } from "./live-events.js";
import { closeReason, LIVE_CLOSE, type LiveOptions, type LiveRequest } from "./live-request.js";

/** What a live call needs from the Worker that holds the app (`TurnHost.live`). */
export interface LiveCallDeps {
  app: App;
  services: RunServices;
  /** The session's store, calling its object directly. */
  store: SessionStore;
  /** The live model an agent's `model` names (`ProviderRegistry.resolveLive`). */
  liveModel: (spec: ModelSpec) => LiveModel;
}

/** Where a live call's events go: the client's socket. */
export interface LiveSink {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** The query's options and the call's limit. */
export interface LiveCallOptions extends LiveOptions {
  /** A request past this many bytes ends the call (`LIVE_CLOSE.tooBig`). */
  maxMessageBytes: number;
}

/** How long a live call's write waits for an ordinary turn that holds the session (its lease) to end. */
const BUSY_WAIT_MS = 10_000;

/**
 * One `/run_live` call (ADK's `Runner.run_live` for one session): the answering agent's live model session,
 * the caller's requests forwarded to it, its answers sent back as ADK events and the whole ones stored,
 * function tools run and answered, and `transfer_to_agent` honoured: the transfer is stored, the model
 * session closes and the target's opens with the history, so the target answers next (ADK-SEMANTICS §2.4).
 * The whole call is one invocation. A failure is an error event (stored and sent), then the socket closes.
 */
export class LiveCall {
  #agent: LlmAgent;
  #ctx: InvocationContext;
  #connection: Promise<LiveConnection>;
  #resumption: string | undefined;
  /** A resumed model session has not answered yet. */
  #resuming = false;
  #writes: Promise<unknown> = Promise.resolve();
  #ended = false;

  private constructor(
    private readonly deps: LiveCallDeps,
    private readonly key: SessionKey,
    private readonly options: LiveCallOptions,
    private readonly sink: LiveSink,
    ctx: InvocationContext,
    agent: LlmAgent,
  ) {
    this.#ctx = ctx;
    this.#agent = agent;
    this.#connection = this.#connect();
    this.#connection.then(
      (connection) => void this.#pump(connection),
      (error: unknown) => void this.#fail(error),
    );
  }

  /** Opens the call for the session `key`: the agent that answers is the one a turn would route to. */
  static async open(
    deps: LiveCallDeps,
    key: SessionKey,
    invocationId: string,
    options: LiveCallOptions,
    sink: LiveSink,
  ): Promise<LiveCall> {
    const session = await deps.store.getSession(key);
    if (!session) throw new BatonError("session_not_found", `Session ${key.sessionId} not found.`);
    const rootAgent = deps.app.rootAgent;
    const agent = findAgentToRun(session.events, rootAgent, deps.services.log);
    if (!(agent instanceof LlmAgent))
      throw new BatonError(
        "MODEL_CONFIG",
        `Agent "${agent.name}" is not a model agent: a live call needs an LlmAgent.`,
      );
    const ctx = new InvocationContext({
      invocationId,
      session,
      rootAgent,
      agent,
      userContent: { role: "user", parts: [] },
      runConfig: { streaming: true, maxLlmCalls: deps.app.maxLlmCalls ?? 500 },
      services: deps.services,
    });
    return new LiveCall(deps, key, options, sink, ctx, agent);
  }

  /** The largest request this call takes, in bytes. */
  get maxMessageBytes(): number {
    return this.options.maxMessageBytes;
  }

  /** One request of the caller, in the order they come. */
  async request(request: LiveRequest): Promise<void> {
    if (this.#ended) return;
    if (request.close) return this.end(LIVE_CLOSE.normal, "");
    const connection = await this.#connection.catch(() => undefined);
    if (!connection || this.#ended) return;
    try {
      if (request.content) {
        const content: Content = { role: request.content.role ?? "user", parts: request.content.parts ?? [] };
        await this.#store(
          createEvent({ invocationId: this.#ctx.invocationId, author: "user", content }, this.deps.services),
        );
        await connection.sendContent(content);
      }
      if (request.activityStart) await connection.sendActivityStart();
      if (request.blob) await connection.sendRealtime(request.blob);
      if (request.activityEnd) await connection.sendActivityEnd();
    } catch (error) {
      await this.#fail(error);
    }
  }

  /** Ends the call: the model session closes; what was stored stays. Idempotent. */
  async end(code: number = LIVE_CLOSE.normal, reason = ""): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.#writes;
    this.sink.close(code, closeReason(reason));
    const connection = await this.#connection.catch(() => undefined);
    await connection?.close().catch(() => undefined);
  }

  /**
   * The agent's live model session, opened with its instruction and tools, then the history; or, resumed
   * with `handle`, the model's own state (no history sent again).
   */
  async #connect(handle?: string): Promise<LiveConnection> {
    const agent = this.#agent;
    const ctx = this.#ctx;
    const spec = agent.resolvedModel;
    if (spec === undefined) throw new BatonError("MODEL_CONFIG", `Agent "${agent.name}" has no model.`);
    const stepped = await stepTools(agent.tools, ctx);
    const request = await buildLlmRequest(
      agent,
      agent.requestSettings,
      ctx,
      new CallbackContext(ctx),
      spec,
      stepped.list,
    );
    const audio = this.options.responseModalities.includes("AUDIO");
    const connection = await this.deps.liveModel(spec).connect({
      systemInstruction: request.systemInstruction,
      tools: request.tools,
      config: request.config,
      responseModalities: this.options.responseModalities,
      sessionResumption: this.options.sessionResumption,
      inputTranscription: audio,
      outputTranscription: audio,
      proactiveAudio: this.options.proactiveAudio,
      affectiveDialog: this.options.affectiveDialog,
      ...(handle === undefined ? {} : { resumptionHandle: handle }),
    });
    if (handle === undefined && request.contents.length > 0) await connection.sendHistory(request.contents);
    return connection;
  }

  /** Reads the model's answers until its session ends; one that ends unasked is resumed once, or fails. */
  async #pump(connection: LiveConnection): Promise<void> {
    // How the model session ended, when not by our asking: an answer with an error code, or a thrown error.
    let failure: unknown;
    try {
      for await (const response of connection.receive()) {
        if (this.#ended) return;
        if (response.errorCode !== undefined) {
          failure = { errorCode: response.errorCode, errorMessage: response.errorMessage ?? "" };
          break;
        }
        const next = await this.#answer(response).catch((error: unknown) => this.#fail(error));
        if (next) return void this.#pump(next);
        if (this.#ended) return;
      }
    } catch (error) {
      failure = error;
    }
    if (this.#ended) return;
    // Resumed with the model's last handle (Gemini's session resumption), once per drop: a session that
    // drops again before it answered anything fails the call.
    const handle = this.#resuming ? undefined : this.#resumption;
    if (handle !== undefined) {
      this.#resuming = true;
      this.deps.services.log(`Live call on ${this.key.sessionId}: the model session ended; resuming it.`);
      this.#connection = this.#connect(handle);
      return this.#connection.then(
        (resumed) => this.#pump(resumed),
        (error: unknown) => this.#fail(error),
      );
    }
    await this.#fail(failure ?? new BatonError("MODEL_UNAVAILABLE", "The live model ended the session."));
  }

  /** One answer: sent, stored if whole, its tools run; a transfer answers the target's connection. */
  async #answer(response: LiveResponse): Promise<LiveConnection | undefined> {
    this.#resuming = false;
    const update = response.liveSessionResumptionUpdate;
    if (update?.newHandle) this.#resumption = update.resumable === false ? undefined : update.newHandle;
    const fields = liveEventFields(response, this.deps.services.ids);
    if (!fields) return undefined;
    const heard = fields.inputTranscription !== undefined && fields.content === undefined;
    const event = heard
      ? createEvent({ invocationId: this.#ctx.invocationId, author: "user", ...fields }, this.deps.services)
      : this.#ctx.newEvent(fields);
    await this.#emit(event);
    const calls = event.partial ? [] : functionCallsOf(event.content);
    if (calls.length === 0) return undefined;
    const tools = (await stepTools(this.#agent.tools, this.#ctx)).byName;
    let answered: Event | undefined;
    for await (const responseEvent of runFunctionCalls(
      this.#ctx,
      this.#agent,
      calls,
      tools,
      this.#agent.config,
    )) {
      await this.#emit(responseEvent);
      answered = responseEvent;
    }
    const transferTo = answered?.actions.transferToAgent;
    if (transferTo) return this.#transfer(transferTo);
    const connection = await this.#connection;
    if (answered?.content) await connection.sendContent(answered.content);
    return undefined;
  }

  /** The committed transfer: this agent's model session closes and the target's opens with the history. */
  async #transfer(targetName: string): Promise<LiveConnection> {
    const transfer = resolveTransfer(this.#agent, targetName);
    if (transfer.kind === "invalid")
      throw new BatonError("TRANSFER_TARGET_NOT_FOUND", transfer.response.error);
    const target = transfer.target;
    if (!(target instanceof LlmAgent))
      throw new BatonError(
        "MODEL_CONFIG",
        `Agent "${target.name}" is not a model agent: a live call needs an LlmAgent.`,
      );
    const previous = await this.#connection;
    await previous.close().catch(() => undefined);
    this.#agent = target;
    this.#ctx = this.#ctx.forAgent(target);
    this.#resumption = undefined;
    this.#connection = this.#connect();
    return this.#connection;
  }

  /** Sends the event to the caller, and stores its whole form first (the session's order is the call's). */
  async #emit(event: Event): Promise<void> {
    const stored = storedForm(event);
    if (stored) await this.#store(stored);
    if (!this.#ended) this.sink.send(JSON.stringify(event));
  }

  /** Stores one event, after those before it; waits out an ordinary turn that holds the session. */
  #store(event: Event): Promise<void> {
    const write = this.#writes.then(async () => {
      const deadline = this.deps.services.clock.now() + BUSY_WAIT_MS;
      for (;;) {
        try {
          const stored = await this.deps.store.appendEvent(this.key, event);
          this.#ctx.session.events.push(stored);
          Object.assign(this.#ctx.session.state, stored.actions.stateDelta);
          return;
        } catch (error) {
          const busy = error instanceof BatonError && error.code === "session_busy";
          if (!busy || this.deps.services.clock.now() >= deadline) throw error;
          await this.deps.services.sleep(250);
        }
      }
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }

  /** The call's failure: an error event by the answering agent (stored, sent), then the socket closes. */
  async #fail(error: unknown): Promise<undefined> {
    if (this.#ended) return;
    const fields = isErrorAnswer(error) ? error : errorFields(error);
    const event = this.#ctx.newEvent({ errorCode: fields.errorCode, errorMessage: fields.errorMessage });
    await this.#emit(event).catch(() => undefined);
    await this.end(LIVE_CLOSE.internal, `${fields.errorCode}: ${fields.errorMessage}`);
  }
}

/** A model's error answer (`errorCode`, `errorMessage`), as the live model port reports a failed session. */
const isErrorAnswer = (value: unknown): value is { errorCode: string; errorMessage: string } =>
  typeof value === "object" && value !== null && "errorCode" in value && typeof value.errorCode === "string";
