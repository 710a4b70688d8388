/**
 * ADK's eval set format (google.adk.evaluation: `EvalSet`, `EvalCase`, `Invocation`, `EvalSetResult`).
 * Read in either spelling ADK writes: snake_case (its `.evalset.json` files, pydantic's field names) or
 * camelCase (its HTTP API and the dev UI, pydantic's aliases). Held and answered over HTTP in camelCase,
 * as ADK's server answers (`by_alias`); `eval-file.ts` writes the snake_case file form.
 */
import * as z from "zod";
import {
  ContentSchema,
  type FunctionCall,
  FunctionCallSchema,
  FunctionResponseSchema,
  JsonObject,
  PartSchema,
  wireObject,
} from "../core/content.js";

/** ADK's `EvalStatus` enum, sent as its number (the dev UI compares `finalEvalStatus == 1`). */
export const EvalStatus = { PASSED: 1, FAILED: 2, NOT_EVALUATED: 3 } as const;
export type EvalStatus = (typeof EvalStatus)[keyof typeof EvalStatus];
const EvalStatusSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** A tool call, a function call in genai's shape: `{id?, name, args}`. */
export const ToolUseSchema = FunctionCallSchema;

/** ADK's newer trace form of an invocation's middle: the events themselves (`InvocationEvents`). */
const InvocationEventSchema = wireObject({ author: z.string(), content: ContentSchema.optional() });

/**
 * What the agent did before its final answer. ADK's `IntermediateData` (`tool_uses`, `tool_responses`,
 * `intermediate_responses` as `[author, parts]` pairs); its newer `InvocationEvents` (`invocation_events`)
 * is read too, and tool uses are taken from its events' function calls.
 */
export const IntermediateDataSchema = wireObject({
  toolUses: z.array(ToolUseSchema).default([]),
  toolResponses: z.array(FunctionResponseSchema).optional(),
  intermediateResponses: z.array(z.tuple([z.string(), z.array(PartSchema)])).default([]),
  invocationEvents: z.array(InvocationEventSchema).optional(),
});
export type IntermediateData = z.infer<typeof IntermediateDataSchema>;

/** One user message and what the agent did with it. */
export const InvocationSchema = wireObject({
  invocationId: z.string().default(""),
  userContent: ContentSchema,
  finalResponse: ContentSchema.optional(),
  intermediateData: IntermediateDataSchema.optional(),
  creationTimestamp: z.number().default(0),
});
export type Invocation = z.infer<typeof InvocationSchema>;

/** The session an eval case starts from: its app, user and initial state. */
export const SessionInputSchema = wireObject({
  appName: z.string(),
  userId: z.string(),
  state: JsonObject.default({}),
});
export type SessionInput = z.infer<typeof SessionInputSchema>;

/** An eval set or case id: one URL path segment (ADK's server puts them in paths and file names). */
export const EvalIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\s/\\]+$/, 'an id has no whitespace, "/" or "\\"');

export const EvalCaseSchema = wireObject({
  evalId: EvalIdSchema,
  conversation: z.array(InvocationSchema),
  sessionInput: SessionInputSchema.optional(),
  creationTimestamp: z.number().default(0),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;

export const EvalSetSchema = wireObject({
  evalSetId: EvalIdSchema,
  name: z.string().optional(),
  description: z.string().optional(),
  evalCases: z.array(EvalCaseSchema).default([]),
  creationTimestamp: z.number().default(0),
});
export type EvalSet = z.infer<typeof EvalSetSchema>;

/** A metric to score with and the score it must reach (ADK `EvalMetric`); the threshold defaults per metric. */
export const EvalMetricSchema = wireObject({
  metricName: z.string().min(1),
  threshold: z.number().optional(),
});
export type EvalMetricRequest = z.infer<typeof EvalMetricSchema>;
export interface EvalMetric {
  metricName: string;
  threshold: number;
}

export interface EvalMetricResult extends EvalMetric {
  /** Absent when the metric could not be computed (`NOT_EVALUATED`). */
  score?: number | undefined;
  evalStatus: EvalStatus;
}

export interface EvalMetricResultPerInvocation {
  actualInvocation: Invocation;
  expectedInvocation: Invocation;
  evalMetricResults: EvalMetricResult[];
}

/** ADK `EvalCaseResult`: one case's scores, overall and per invocation, and the session it ran in. */
export interface EvalCaseResult {
  /** Deprecated in ADK in favour of `evalSetId`; ADK still fills it, with the set's id. */
  evalSetFile: string;
  evalSetId: string;
  evalId: string;
  finalEvalStatus: EvalStatus;
  overallEvalMetricResults: EvalMetricResult[];
  evalMetricResultPerInvocation: EvalMetricResultPerInvocation[];
  sessionId: string;
  userId: string;
}

/** ADK `EvalSetResult`: one run of (some of) a set's cases. */
export interface EvalSetResult {
  evalSetResultId: string;
  evalSetResultName: string;
  evalSetId: string;
  evalCaseResults: EvalCaseResult[];
  creationTimestamp: number;
}

/** Stored results are Baton's own writing; this reads them back with the statuses checked. */
const EvalMetricResultSchema = z.object({
  metricName: z.string(),
  threshold: z.number(),
  score: z.number().optional(),
  evalStatus: EvalStatusSchema,
});
export const EvalSetResultSchema = z.object({
  evalSetResultId: z.string(),
  evalSetResultName: z.string(),
  evalSetId: z.string(),
  creationTimestamp: z.number(),
  evalCaseResults: z.array(
    z.object({
      evalSetFile: z.string(),
      evalSetId: z.string(),
      evalId: z.string(),
      finalEvalStatus: EvalStatusSchema,
      overallEvalMetricResults: z.array(EvalMetricResultSchema),
      evalMetricResultPerInvocation: z.array(
        z.object({
          actualInvocation: InvocationSchema,
          expectedInvocation: InvocationSchema,
          evalMetricResults: z.array(EvalMetricResultSchema),
        }),
      ),
      sessionId: z.string(),
      userId: z.string(),
    }),
  ),
}) satisfies z.ZodType<EvalSetResult, unknown>;

/** The tool calls of an invocation, in order, whichever form its intermediate data has. */
export function toolUsesOf(invocation: Invocation): FunctionCall[] {
  const data = invocation.intermediateData;
  if (!data) return [];
  if (data.invocationEvents)
    return data.invocationEvents.flatMap((e) =>
      (e.content?.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : [])),
    );
  return data.toolUses;
}
