import * as z from "zod";
import { BatonError } from "../core/errors.js";

/** A model's JSON answer may come wrapped in a Markdown code fence; ADK strips a leading one. */
const FENCE = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/;

/**
 * The text of an agent with an `outputSchema`, parsed as JSON and validated (ADK
 * `output_schema.model_validate_json`). A mismatch fails the agent with a message naming it.
 */
export function parseStructuredOutput(agentName: string, schema: z.ZodType, text: string): unknown {
  const json = FENCE.exec(text)?.[1] ?? text;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new BatonError(
      "AGENT_ERROR",
      `Agent "${agentName}" answered text that is not JSON for its outputSchema: ${String(error)}`,
    );
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BatonError(
      "AGENT_ERROR",
      `Agent "${agentName}" answered JSON that does not match its outputSchema: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
