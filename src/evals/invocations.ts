import type { FunctionCall, Part } from "../core/content.js";
import type { Event } from "../core/event.js";
import type { Invocation } from "./eval-set.js";

/**
 * A session's events as eval invocations, as ADK's `convert_session_to_eval_invocations` cuts them (the
 * dev UI's "add session to eval set"): each user event with content opens an invocation; the events after
 * it, up to the next one, give its tool uses (every function call, in order) and its text responses, one
 * `[author, parts]` entry per event with text; the last of these is the final response, the others are
 * intermediate responses. Baton runs eval turns through the same cut, so expected and actual invocations
 * are made alike. Partial (streamed) events, thoughts and the user's own events in between are skipped.
 */
export function invocationsOf(events: readonly Event[]): Invocation[] {
  const invocations: Invocation[] = [];
  let current: { invocation: Invocation; responses: [string, Part[]][]; toolUses: FunctionCall[] } | null =
    null;
  const close = () => {
    if (!current) return;
    const { invocation, responses, toolUses } = current;
    const final = responses.at(-1);
    invocations.push({
      invocationId: invocation.invocationId,
      userContent: invocation.userContent,
      ...(final ? { finalResponse: { parts: final[1] } } : {}),
      intermediateData: { toolUses, intermediateResponses: responses.slice(0, -1) },
      creationTimestamp: invocation.creationTimestamp,
    });
    current = null;
  };
  for (const event of events) {
    if (event.partial) continue;
    const parts = event.content?.parts ?? [];
    if (event.author === "user") {
      if (parts.length === 0) continue;
      close();
      current = {
        invocation: {
          invocationId: event.invocationId,
          userContent: { role: "user", parts },
          creationTimestamp: event.timestamp,
        },
        responses: [],
        toolUses: [],
      };
      continue;
    }
    if (!current) continue;
    for (const part of parts) if (part.functionCall) current.toolUses.push(part.functionCall);
    const texts = parts.filter((p) => p.text !== undefined && p.text !== "" && !p.thought && !p.functionCall);
    if (texts.length > 0) current.responses.push([event.author, texts.map((p) => ({ text: p.text ?? "" }))]);
  }
  close();
  return invocations;
}
