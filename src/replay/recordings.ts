import * as z from "zod";

/*
 * ADK's conformance recordings (`generated-recordings.yaml`, Python `Recordings`; every model is
 * `extra="forbid"`, so these are strict). snake_case, as Python dumps them.
 */

const JsonObject = z.record(z.string(), z.unknown());

const FunctionCallSchema = z
  .object({ id: z.string().optional(), name: z.string(), args: JsonObject.optional() })
  .strict();
const FunctionResponseSchema = z
  .object({ id: z.string().optional(), name: z.string(), response: JsonObject })
  .strict();

export const RecordedLlmRequestSchema = z
  .object({
    model: z.string().optional(),
    contents: z.array(JsonObject),
    config: JsonObject.optional(),
    live_connect_config: JsonObject.optional(),
  })
  .strict();
export type RecordedLlmRequest = z.infer<typeof RecordedLlmRequestSchema>;

const LlmRecordingSchema = z
  .object({
    llm_request: RecordedLlmRequestSchema,
    // adk-python 1.19 writes one response; newer versions a list that also holds SSE partials.
    llm_response: JsonObject.optional(),
    llm_responses: z.array(JsonObject).optional(),
  })
  .strict()
  .refine((r) => (r.llm_response === undefined) !== (r.llm_responses === undefined), {
    message: "exactly one of llm_response | llm_responses",
  });
export type LlmRecording = z.infer<typeof LlmRecordingSchema>;

const ToolRecordingSchema = z
  .object({ tool_call: FunctionCallSchema, tool_response: FunctionResponseSchema })
  .strict();
export type ToolRecording = z.infer<typeof ToolRecordingSchema>;

/** `generated-recordings.yaml` (Python `Recordings`, all models `extra="forbid"`). */
export const RecordingsSchema = z
  .object({
    recordings: z.array(
      z
        .object({
          user_message_index: z.number().int().nonnegative(),
          agent_name: z.string(),
          llm_recording: LlmRecordingSchema.optional(),
          tool_recording: ToolRecordingSchema.optional(),
        })
        .strict()
        .refine((r) => (r.llm_recording === undefined) !== (r.tool_recording === undefined), {
          message: "exactly one of llm_recording | tool_recording",
        }),
    ),
  })
  .strict();
export type Recordings = z.infer<typeof RecordingsSchema>;
export type Recording = Recordings["recordings"][number];
