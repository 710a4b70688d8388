import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import * as z from "zod";
import { textOf } from "../../core/content.js";
import { BatonError } from "../../core/errors.js";
import type { Event } from "../../core/event.js";
import type { App } from "../../runner/app.js";

/** The one tool's arguments: the user's message, and the session to continue (a new one otherwise). */
export const TurnArgsSchema = z.strictObject({
  message: z.string().min(1),
  sessionId: z.string().min(1).optional(),
});
export type TurnArgs = z.infer<typeof TurnArgsSchema>;

/** What the tool answers besides its text content: the session to pass back to continue it. */
const TurnOutputSchema = z.object({ sessionId: z.string(), text: z.string() });

/** An MCP tool name from an app name (`[A-Za-z0-9_.-]`, at most 64 characters). */
export const turnToolName = (app: App): string =>
  app.name.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "app";

/** The app's one tool, as `tools/list` shows it. */
export function turnToolOf(app: App): Tool {
  const about = app.rootAgent.description.trim();
  return {
    name: turnToolName(app),
    description:
      `${about === "" ? `The "${app.name}" agent app.` : about} Runs one turn: send the user's message; ` +
      "pass the sessionId of an earlier answer to continue that conversation, or none to start a new one.",
    inputSchema: {
      type: "object",
      properties: {
        message: { type: "string", description: "What the user says." },
        sessionId: { type: "string", description: "The session to continue (from an earlier result)." },
      },
      required: ["message"],
      additionalProperties: false,
    },
    // SAFETY: zod's JSON Schema of an object schema is an object schema.
    outputSchema: z.toJSONSchema(TurnOutputSchema) as Tool["outputSchema"],
  };
}

/** A readable line for a progress notification: who spoke and what (text, a call, a response, an error). */
export function progressLine(event: Event): string | undefined {
  const text = textOf(event.content);
  if (text !== "") return `${event.author}: ${text}`;
  const part = event.content?.parts?.find((p) => p.functionCall ?? p.functionResponse);
  if (part?.functionCall) return `${event.author} calls ${part.functionCall.name}`;
  if (part?.functionResponse) return `${part.functionResponse.name} answered`;
  if (event.errorCode !== undefined) return `${event.author} failed: ${event.errorCode}`;
  return undefined;
}

/** The turn's answer: the last agent event's text, or its error, with the session id to continue. */
export function turnResult(sessionId: string, events: readonly Event[]): CallToolResult {
  const answer = events.findLast(
    (e) => e.author !== "user" && !e.partial && (textOf(e.content) !== "" || e.errorCode),
  );
  const failed = answer?.errorCode !== undefined && textOf(answer.content) === "";
  const text = failed
    ? `${answer?.errorCode}: ${answer?.errorMessage ?? "the agent failed"}`
    : textOf(answer?.content);
  return {
    content: [{ type: "text", text }],
    structuredContent: { sessionId, text },
    ...(failed ? { isError: true } : {}),
  };
}

/** A refusal (unknown session, busy session, forbidden user) as a tool error the client can read. */
export function refusalResult(error: unknown): CallToolResult {
  if (!(error instanceof BatonError) || error.kind !== "refusal") throw error;
  return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
}

/**
 * Arguments that do not fit the tool's input schema, as a tool result with `isError` (MCP 2025-11-25,
 * SEP-1303): the calling model reads what was wrong and can call again.
 */
export const invalidArgumentsResult = (detail: string): CallToolResult => ({
  content: [{ type: "text", text: `Invalid arguments: ${detail}` }],
  isError: true,
});
