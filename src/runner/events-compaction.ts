import type { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { applyCompactions, compactionOf, type EventCompaction } from "../core/compaction.js";
import { BatonError } from "../core/errors.js";
import { createEvent, type Event } from "../core/event.js";
import { newEventId } from "../core/ids.js";
import { DEFAULT_RETRY, type LlmResponse, type ModelSpec } from "../core/llm.js";
import type { RunServices } from "../core/ports.js";

/** Turns a range of events into one compaction event (ADK `BaseEventsSummarizer`), or nothing. */
export interface EventsSummarizer {
  summarize(events: readonly Event[], context: SummarizeContext): Promise<Event | undefined>;
}

export interface SummarizeContext {
  services: RunServices;
  signal?: AbortSignal | undefined;
}

/**
 * ADK `EventsCompactionConfig` (`App.events_compaction_config`), camelCased. Two triggers, each set as a
 * pair, at least one of them: every `compactionInterval` new invocations (summaries overlap by
 * `overlapSize` invocations), and/or once a model call's prompt reached `tokenThreshold` tokens (all but
 * the newest `eventRetentionSize` events are summarized). Stored events are never removed: the prompt
 * reads each summary in place of the events it covers.
 */
export interface EventsCompactionConfig {
  compactionInterval?: number;
  overlapSize?: number;
  tokenThreshold?: number;
  eventRetentionSize?: number;
  /** Default: `llmEventSummarizer` on the model of the tree's first LlmAgent (ADK: the root agent's). */
  summarizer?: EventsSummarizer;
}

/** Checks the pairs as ADK's validator does and fills in the default summarizer. */
export function checkCompactionConfig(
  config: EventsCompactionConfig,
  root: BaseAgent,
): EventsCompactionConfig {
  const set = (v: number | undefined) => v !== undefined;
  const bad = (message: string) => new BatonError("invalid_config", `eventsCompaction: ${message}`);
  if (set(config.compactionInterval) !== set(config.overlapSize))
    throw bad("compactionInterval and overlapSize must be set together.");
  if (set(config.tokenThreshold) !== set(config.eventRetentionSize))
    throw bad("tokenThreshold and eventRetentionSize must be set together.");
  if (!set(config.compactionInterval) && !set(config.tokenThreshold))
    throw bad("set compactionInterval and overlapSize, or tokenThreshold and eventRetentionSize.");
  for (const [name, value, min] of [
    ["compactionInterval", config.compactionInterval, 1],
    ["overlapSize", config.overlapSize, 0],
    ["tokenThreshold", config.tokenThreshold, 1],
    ["eventRetentionSize", config.eventRetentionSize, 0],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < min))
      throw bad(`${name} must be a whole number of at least ${min}, got ${value}.`);
  }
  if (config.summarizer) return config;
  const model = firstModel(root);
  if (model === undefined)
    throw bad("no summarizer given and no LlmAgent in the tree has a model to summarize with.");
  return { ...config, summarizer: llmEventSummarizer({ model }) };
}

function firstModel(agent: BaseAgent): ModelSpec | undefined {
  if (agent instanceof LlmAgent && agent.resolvedModel !== undefined) return agent.resolvedModel;
  for (const sub of agent.subAgents) {
    const model = firstModel(sub);
    if (model !== undefined) return model;
  }
  return undefined;
}

/**
 * ADK's prompt, byte for byte: its template writes `\n` as the two characters backslash and n (an escaped
 * newline in ADK's Python source), and so does the line join below.
 */
const DEFAULT_PROMPT_TEMPLATE =
  "The following is a conversation history between a user and an AI agent. Please summarize the" +
  " conversation, focusing on key information and decisions made, as well as any unresolved questions or" +
  " tasks. The summary should be concise and capture the essence of the interaction.\\n\\n{conversation_history}";

/**
 * ADK `LlmEventSummarizer`: one model call with the covered events' texts (`author: text` lines) in a
 * prompt, its answer kept as the compaction's content (role `model`), on a content-less event by `user`.
 */
export function llmEventSummarizer(options: { model: ModelSpec; promptTemplate?: string }): EventsSummarizer {
  const template = options.promptTemplate ?? DEFAULT_PROMPT_TEMPLATE;
  return {
    async summarize(events, { services, signal }) {
      const first = events[0];
      const last = events.at(-1);
      if (first === undefined || last === undefined) return undefined;
      const lines: string[] = [];
      for (const event of events)
        for (const part of event.content?.parts ?? [])
          if (part.text) lines.push(`${event.author}: ${part.text}`);
      const prompt = template.replace("{conversation_history}", lines.join("\\n"));
      const request = {
        systemInstruction: "",
        contents: [{ role: "user", parts: [{ text: prompt }] }],
        tools: [],
        config: {},
      };
      let answer: LlmResponse | undefined;
      const call = { streaming: false, retry: DEFAULT_RETRY, services, ...(signal ? { signal } : {}) };
      for await (const response of services.models.call(options.model, request, call)) {
        if (response.partial || response.content === undefined) continue;
        answer = response;
        break;
      }
      if (answer?.content === undefined) return undefined;
      const compaction: EventCompaction = {
        startTimestamp: first.timestamp,
        endTimestamp: last.timestamp,
        compactedContent: { ...answer.content, role: "model" },
      };
      return createEvent(
        {
          invocationId: newEventId(services.ids),
          author: "user",
          actions: { compaction },
          ...(answer.usageMetadata ? { usageMetadata: answer.usageMetadata } : {}),
        },
        services,
      );
    },
  };
}

/** What to summarize after a turn: the summarizer's input, and where the new range starts when not at its first event. */
export interface CompactionPlan {
  events: readonly Event[];
  startTimestamp?: number;
}

/**
 * What to summarize after a turn, or nothing (ADK `_run_compaction_for_sliding_window`, and its token
 * trigger, which wins when both fire). `events` are what the turn loaded and added, oldest first.
 */
export function planCompaction(
  config: EventsCompactionConfig,
  events: readonly Event[],
): CompactionPlan | undefined {
  return tokenPlan(config, events) ?? slidingPlan(config, events);
}

const isRaw = (e: Event): boolean => e.actions.compaction === undefined;

/** The newest compaction, if any. */
function newestCompaction(events: readonly Event[]): EventCompaction | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    const compaction = event && compactionOf(event);
    if (compaction) return compaction;
  }
  return undefined;
}

/**
 * Every `compactionInterval` invocations newer than the last compaction, the raw events from `overlapSize`
 * invocations before the first new one through the last new one.
 */
function slidingPlan(config: EventsCompactionConfig, events: readonly Event[]): CompactionPlan | undefined {
  const { compactionInterval: interval, overlapSize: overlap = 0 } = config;
  if (interval === undefined) return undefined;
  const latest = new Map<string, number>();
  for (const e of events)
    if (e.invocationId && isRaw(e))
      latest.set(e.invocationId, Math.max(latest.get(e.invocationId) ?? 0, e.timestamp));
  const invocations = [...latest.keys()];
  const end = newestCompaction(events)?.endTimestamp ?? 0;
  const fresh = invocations.filter((id) => (latest.get(id) ?? 0) > end);
  const firstNew = fresh[0];
  const lastNew = fresh.at(-1);
  if (fresh.length < interval || firstNew === undefined || lastNew === undefined) return undefined;
  const startId = invocations[Math.max(0, invocations.indexOf(firstNew) - overlap)];
  const from = events.findIndex((e) => e.invocationId === startId);
  const to = events.findLastIndex((e) => e.invocationId === lastNew);
  const covered = from < 0 || to < from ? [] : events.slice(from, to + 1).filter(isRaw);
  return covered.length > 0 ? { events: covered } : undefined;
}

/**
 * Once the newest prompt reached `tokenThreshold` tokens: all but the newest `eventRetentionSize` raw
 * events. The newest summary is folded in (the summarizer reads it, as a model turn, before the raw events
 * after it) and the new range starts where that summary's did, so it replaces it: the prompt stays one
 * summary plus the retained events.
 */
function tokenPlan(config: EventsCompactionConfig, events: readonly Event[]): CompactionPlan | undefined {
  const { tokenThreshold, eventRetentionSize = 0 } = config;
  if (tokenThreshold === undefined || promptTokens(events) < tokenThreshold) return undefined;
  const raw = events.filter(isRaw);
  const lastCovered = raw[raw.length - eventRetentionSize - 1];
  const previous = newestCompaction(events);
  if (
    lastCovered === undefined ||
    lastCovered.timestamp <= (previous?.endTimestamp ?? Number.NEGATIVE_INFINITY)
  )
    return undefined;
  const end = events.indexOf(lastCovered);
  const input = applyCompactions(
    events.filter((e, i) => i <= end || !isRaw(e)),
    "model",
  );
  const first = input[0];
  if (first === undefined) return undefined;
  return previous ? { events: input, startTimestamp: previous.startTimestamp } : { events: input };
}

/** The prompt size the newest model answer reported (`usageMetadata.promptTokenCount`), or 0. */
function promptTokens(events: readonly Event[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    const count = event?.usageMetadata?.promptTokenCount;
    if (typeof count === "number" && event?.author !== "user") return count;
  }
  return 0;
}
