import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";

const JsonObject = z.record(z.string(), z.unknown());

/** `spec.yaml` (Python `TestSpec`, `extra="forbid"`). A message is `text` or genai `content`. */
export const TestSpecSchema = z
  .object({
    description: z.string(),
    agent: z.string().min(1),
    initial_state: JsonObject.optional(),
    user_messages: z.array(
      z
        .object({
          text: z.string().optional(),
          content: JsonObject.optional(),
          state_delta: JsonObject.optional(),
        })
        .strict()
        .refine((m) => (m.text === undefined) !== (m.content === undefined), "exactly one of text | content"),
    ),
  })
  .strict();
export type TestSpec = z.infer<typeof TestSpecSchema>;

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

/** `generated-session.yaml` (a Python `Session`); events stay loose, the comparator reads every field. */
export const ExpectedSessionSchema = z
  .object({
    id: z.string(),
    app_name: z.string(),
    user_id: z.string(),
    state: JsonObject,
    events: z.array(JsonObject),
    last_update_time: z.number(),
  })
  .strict();
export type ExpectedSession = z.infer<typeof ExpectedSessionSchema>;

/** Reads and validates one YAML file, naming the file in any error. */
export function readYaml<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  if (!existsSync(file)) throw new Error(`Missing conformance file ${file}`);
  const parsed = schema.safeParse(parse(readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new Error(`${file} does not match its format:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The three files of a case in non-streaming mode (the fork has no `-sse` variants). */
export interface CaseFiles {
  spec: TestSpec;
  recordings: Recordings;
  session: ExpectedSession;
}

export const readCaseFiles = (dir: string): CaseFiles => ({
  spec: readYaml(join(dir, "spec.yaml"), TestSpecSchema),
  recordings: readYaml(join(dir, "generated-recordings.yaml"), RecordingsSchema),
  session: readYaml(join(dir, "generated-session.yaml"), ExpectedSessionSchema),
});
