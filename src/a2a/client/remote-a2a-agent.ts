import { BaseAgent, type BaseAgentConfig } from "../../agents/base-agent.js";
import type { InvocationContext } from "../../agents/invocation-context.js";
import { untilAbortedEach } from "../../agents/until-aborted.js";
import type { Event } from "../../core/event.js";
import { newFunctionCallId } from "../../core/ids.js";
import type { SharedScope } from "../../core/state.js";
import type { A2aMessage } from "../protocol/a2a-objects.js";
import type { AgentCardJson } from "../protocol/agent-card.js";
import { sendMessage } from "./a2a-transport.js";
import { classifyFailure } from "./call-failure.js";
import { replyAttributes, startCallSpan } from "./call-span.js";
import { type CardCache, memoryCardCache } from "./card-cache.js";
import { resolveCard } from "./card-resolver.js";
import { type ChosenInterface, chooseInterface } from "./choose-interface.js";
import { ADK_EXTENSION_URI } from "./extension-handler.js";
import type { FetchProbe } from "./guarded-fetch.js";
import { buildOutgoing } from "./outgoing-message.js";
import { RemoteCallError } from "./remote-call-error.js";
import { isEvent, type RemoteA2aInterceptor, replyEvent } from "./reply-event.js";
import {
  type ConvertContext,
  type ResponseConverter,
  type ResponseItem,
  StreamFolder,
} from "./response-item.js";
import { kvCacheOf, runFetch } from "./run-services.js";
import { cancelStoppedCall } from "./stopped-call.js";
import { isStreamComplete } from "./stream-complete.js";

export interface RemoteA2aAgentConfig extends Omit<BaseAgentConfig, "subAgents"> {
  /** The card's URL (`…/.well-known/agent-card.json` or the agent's base URL) or the card itself (0.3 or 1.0). */
  agentCard: string | object;
  /** Stream (SSE) when the card allows it. Default: the run's own streaming mode. */
  streaming?: boolean;
  /** The limit for one call, card fetch included. Default 600 000 ms (ADK's). */
  timeoutMs?: number;
  /** Extra HTTP headers on every call (for example `Authorization`). */
  headers?: Readonly<Record<string, string>>;
  interceptors?: readonly RemoteA2aInterceptor[];
  /** Replace the built-in conversion of one kind of reply item. Failed tasks are marked after any converter. */
  converters?: Partial<Record<ResponseItem["kind"], ResponseConverter>>;
  /** `false` asks the peer for ADK's A2A extension (ADK `use_legacy=False`). Default `true`. */
  useLegacy?: boolean;
  /** The `fetch` to call the peer with. Default: the run services' `fetch`. */
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * An agent that lives elsewhere and is reached over A2A 0.3 or 1.0 (ADK's `RemoteA2aAgent`, ADK-SEMANTICS
 * §5). It has no transfer tool and is never sticky (§2.1): the next turn goes back to the agent that
 * transferred to it. A task that ends `failed` is an error event, never an ordinary answer (§5.7).
 * @example
 * const coder = new RemoteA2aAgent({ name: "coder", agentCard: "https://coder.example/.well-known/agent-card.json" });
 */
export class RemoteA2aAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  readonly config: Readonly<RemoteA2aAgentConfig>;
  private readonly memoryCache: CardCache = memoryCardCache();

  constructor(config: RemoteA2aAgentConfig) {
    super(config);
    if (config.agentCard === "")
      throw new TypeError(`Remote agent "${config.name}" needs an agent card or its URL.`);
    this.config = config;
  }

  /** Its callbacks, interceptors and converters (both scopes, unless declared); the peer never sees state. */
  override sharedScopes(): readonly SharedScope[] {
    if (!this.runsBody(RemoteA2aAgent.prototype.runImpl)) return super.sharedScopes();
    const { interceptors = [], converters = {} } = this.config;
    const hooks = [...interceptors, ...Object.values(converters)];
    return this.callbackScopes(...hooks);
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    const fetchImpl = this.config.fetch ?? runFetch(ctx);
    const timeoutMs = this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ctx.runConfig.signal ? AbortSignal.any([timeout, ctx.runConfig.signal]) : timeout;
    let card: AgentCardJson;
    let chosen: ChosenInterface;
    try {
      card = await resolveCard(this.config.agentCard, {
        fetch: fetchImpl,
        cache: kvCacheOf(ctx) ?? this.memoryCache,
        now: () => ctx.services.clock.now(),
        signal,
      });
      chosen = chooseInterface(card);
    } catch (error) {
      yield this.errorEvent(ctx, cardFailure(error, timeout.aborted, timeoutMs));
      return;
    }
    const outgoing = buildOutgoing(ctx.events, this.name, ctx.services.ids.uuid());
    if (outgoing.kind === "nothing") {
      yield ctx.newEvent({ content: {} });
      return;
    }
    let message = outgoing.message;
    for (const interceptor of this.config.interceptors ?? []) {
      const result = await interceptor.beforeRequest?.(ctx, message);
      if (result === undefined) continue;
      if (isEvent(result)) {
        yield result;
        return;
      }
      message = result;
    }
    yield* this.call(ctx, { card, chosen, message, fetchImpl, signal, timeout, timeoutMs });
  }

  private async *call(ctx: InvocationContext, call: Call): AsyncGenerator<Event> {
    const { card, chosen, message } = call;
    const probe: FetchProbe = {};
    const streaming =
      (this.config.streaming ?? ctx.runConfig.streaming) && card.capabilities.streaming === true;
    const convertCtx: ConvertContext = { newFunctionCallId: () => newFunctionCallId(ctx.services.ids) };
    const folder = new StreamFolder();
    let last: ResponseItem | undefined;
    const span = startCallSpan(ctx, this.name, chosen, streaming);
    try {
      const replies = sendMessage(card, chosen, message, {
        ...this.callOptions(call),
        streaming,
        signal: call.signal,
        probe,
      });
      for await (const reply of untilAbortedEach(replies, call.signal)) {
        const item = folder.fold(reply);
        last = item;
        const event = await replyEvent(ctx, item, message, { ...this.config, convertCtx });
        if (event) yield event;
      }
      if (streaming && !isStreamComplete(last)) {
        throw new RemoteCallError(
          "A2A_PROTOCOL_ERROR",
          "A2A request failed: the stream ended before the task finished",
        );
      }
    } catch (error) {
      // The turn was stopped: the remote task it waited on is canceled too, and the turn ends (its cancel
      // event is the store's, not an error of this agent).
      if (ctx.runConfig.signal?.aborted) {
        await cancelStoppedCall({
          card,
          chosen,
          message,
          last,
          options: { ...this.callOptions(call), probe },
          sleep: (ms) => ctx.services.sleep(ms),
          log: (line) => ctx.services.log(`Remote agent "${this.name}": ${line}`),
        });
        span.end(replyAttributes(last), error);
        throw error;
      }
      const failure = classifyFailure(error, {
        status: probe.status,
        networkError: probe.networkError ?? false,
        timedOut: call.timeout.aborted,
        timeoutMs: call.timeoutMs,
      });
      ctx.services.log(`Remote agent "${this.name}": ${failure.message}`);
      span.end(replyAttributes(last), failure);
      yield this.errorEvent(ctx, failure, message);
    } finally {
      span.end(replyAttributes(last));
    }
  }

  /** How every call to the peer goes out: its `fetch`, the agent's headers and requested extensions. */
  private callOptions(call: Call) {
    return {
      fetch: call.fetchImpl,
      headers: this.config.headers ?? {},
      extensions: this.config.useLegacy === false ? [ADK_EXTENSION_URI] : [],
    };
  }

  private errorEvent(ctx: InvocationContext, failure: RemoteCallError, message?: A2aMessage): Event {
    return ctx.newEvent({
      errorCode: failure.errorCode,
      errorMessage: failure.message,
      customMetadata: {
        ...(message ? { "a2a:request": message } : {}),
        "a2a:error": failure.cause instanceof Error ? failure.cause.message : failure.message,
        ...failure.metadata,
      },
    });
  }
}

interface Call {
  card: AgentCardJson;
  chosen: ChosenInterface;
  message: A2aMessage;
  fetchImpl: typeof fetch;
  signal: AbortSignal;
  timeout: AbortSignal;
  timeoutMs: number;
}

function cardFailure(error: unknown, timedOut: boolean, timeoutMs: number): RemoteCallError {
  if (error instanceof RemoteCallError) return error;
  const detail = timedOut
    ? `no agent card within ${timeoutMs} ms`
    : error instanceof Error
      ? error.message
      : String(error);
  return new RemoteCallError(
    "A2A_CARD_UNAVAILABLE",
    `Failed to initialize remote A2A agent: ${detail}`,
    {},
    { cause: error },
  );
}
