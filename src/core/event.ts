import * as z from "zod";
import {
  type Content,
  ContentSchema,
  functionCallsOf,
  functionResponsesOf,
  JsonObject,
  wireObject,
} from "./content.js";
import { type Clock, type IdSource, newEventId, toWireSeconds } from "./ids.js";
import { normalizeWireKeys } from "./wire-case.js";

/** A workflow route key (ADK 2.x `RouteValue`): edges match it by its string form. */
export const RouteKeySchema = z.union([z.string(), z.number(), z.boolean()]);
export type RouteKey = z.infer<typeof RouteKeySchema>;
/** The route(s) a workflow node emits: one key fires one branch, a list every branch any key matches. */
export const RouteSchema = z.union([RouteKeySchema, z.array(RouteKeySchema)]);
export type Route = z.infer<typeof RouteSchema>;

/**
 * ADK 2.x `Event.node_info`: which workflow node produced the event. `path` is the node's path from the
 * outermost workflow, segments joined by `/` (`triage/classify`, `triage/worker@2`, as ADK Python and its
 * dev UI write it); `outputFor` the node paths this event's `output` is the result of; `messageAsOutput`
 * that the event's text is its node's output (an agent's reply).
 */
export const NodeInfoSchema = wireObject({
  path: z.string().optional(),
  outputFor: z.array(z.string()).optional(),
  messageAsOutput: z.boolean().optional(),
});
export type NodeInfo = z.infer<typeof NodeInfoSchema>;

/** ADK `EventActions` (ADK-SEMANTICS §1.2). The dict-valued actions default to `{}` as in Python. */
export const EventActionsSchema = wireObject({
  stateDelta: JsonObject.default({}),
  artifactDelta: z.record(z.string(), z.number()).default({}),
  transferToAgent: z.string().optional(),
  escalate: z.boolean().optional(),
  skipSummarization: z.boolean().optional(),
  requestedAuthConfigs: JsonObject.default({}),
  requestedToolConfirmations: JsonObject.default({}),
  endOfAgent: z.boolean().optional(),
  agentState: JsonObject.optional(),
  rewindBeforeInvocationId: z.string().optional(),
  compaction: JsonObject.optional(),
  /** ADK 2.x: the route a workflow node emitted (the graph follows the edges it matches). */
  route: RouteSchema.optional(),
});
export type EventActions = z.infer<typeof EventActionsSchema>;

/**
 * ADK's TypeScript port writes a node's `route` on the event itself, Python (and Baton) in `actions`: an
 * event read with a top-level `route` gets it in `actions.route`.
 */
function liftRoute(value: unknown): unknown {
  const event = normalizeWireKeys(value);
  if (!isRecord(event) || !("route" in event)) return event;
  const { route, ...rest } = event;
  const actions = normalizeWireKeys(rest.actions ?? {});
  if (!isRecord(actions) || "route" in actions) return rest;
  return { ...rest, actions: { ...actions, route } };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** genai's `Transcription`: a live call's words, as the model heard or spoke them. */
const TranscriptionSchema = z.object({ text: z.string().optional(), finished: z.boolean().optional() });

/**
 * ADK `Event` in Python's wire shape (ADK-SEMANTICS §1.1, §8.4): float-second timestamps, UUID ids. The ADK
 * 2.x fields (`output`, `nodeInfo`, `isolationScope`, `actions.route`) are optional, so 1.x events read as
 * they always did.
 */
export const EventSchema = z.preprocess(
  liftRoute,
  z.object({
    id: z.string().min(1),
    invocationId: z.string(),
    author: z.string(),
    branch: z.string().optional(),
    timestamp: z.number(),
    content: ContentSchema.optional(),
    partial: z.boolean().optional(),
    turnComplete: z.boolean().optional(),
    interrupted: z.boolean().optional(),
    /** A live call's transcript of the caller's audio (`/run_live`); `finished` on an utterance's last piece. */
    inputTranscription: TranscriptionSchema.optional(),
    /** A live call's transcript of the model's audio. */
    outputTranscription: TranscriptionSchema.optional(),
    finishReason: z.string().optional(),
    errorCode: z.string().optional(),
    errorMessage: z.string().optional(),
    modelVersion: z.string().optional(),
    usageMetadata: JsonObject.optional(),
    avgLogprobs: z.number().optional(),
    groundingMetadata: JsonObject.optional(),
    citationMetadata: JsonObject.optional(),
    customMetadata: JsonObject.optional(),
    longRunningToolIds: z.array(z.string()).optional(),
    actions: EventActionsSchema.default(() => emptyActions()),
    /** ADK 2.x: the structured output of the workflow node that produced the event. */
    output: z.unknown().optional(),
    nodeInfo: NodeInfoSchema.optional(),
    /** ADK 2.x: the conversation scope of the event; an agent in another scope does not see it. */
    isolationScope: z.string().optional(),
  }),
);
export type Event = z.infer<typeof EventSchema>;

export const emptyActions = (): EventActions => ({
  stateDelta: {},
  artifactDelta: {},
  requestedAuthConfigs: {},
  requestedToolConfirmations: {},
});

export interface EventEnv {
  ids: IdSource;
  clock: Clock;
}

export type NewEvent = Omit<Event, "id" | "timestamp" | "actions"> & {
  actions?: Partial<EventActions>;
  id?: string;
};

/** Stamps a new event with a fresh UUID and the current time in float seconds. */
export function createEvent(fields: NewEvent, env: EventEnv): Event {
  const { actions, id, ...rest } = fields;
  return {
    id: id ?? newEventId(env.ids),
    ...rest,
    timestamp: toWireSeconds(env.clock.now()),
    actions: { ...emptyActions(), ...actions },
  };
}

/** ADK `is_final_response()` exactly (ADK-SEMANTICS §1.3). */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization || (event.longRunningToolIds?.length ?? 0) > 0) return true;
  const parts = event.content?.parts ?? [];
  const last = parts.at(-1);
  return (
    functionCallsOf(event.content).length === 0 &&
    functionResponsesOf(event.content).length === 0 &&
    !event.partial &&
    last?.codeExecutionResult === undefined
  );
}

export const hasContent = (content: Content | undefined): boolean => (content?.parts?.length ?? 0) > 0;

/** An error event that carries no content: routing and history skip it (ADK-SEMANTICS §2.4). */
export const isErrorWithoutContent = (event: Event): boolean =>
  (event.errorCode !== undefined || event.errorMessage !== undefined) && !hasContent(event.content);
