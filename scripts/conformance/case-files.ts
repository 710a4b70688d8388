import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { type Recordings, RecordingsSchema } from "../../src/replay/recordings.js";

const JsonObject = z.record(z.string(), z.unknown());

export type {
  LlmRecording,
  RecordedLlmRequest,
  Recording,
  Recordings,
  ToolRecording,
} from "../../src/replay/recordings.js";
export { RecordingsSchema };

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
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = schema.safeParse(raw);
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
