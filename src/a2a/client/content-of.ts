import type { Content, Part } from "../../core/content.js";
import type { A2aMessage, A2aPart } from "../protocol/a2a-objects.js";
import { taskStateName } from "../protocol/task-state.js";
import { toAdkPart } from "./part-convert.js";
import type { ConvertContext } from "./response-item.js";

/** The mock calls that stand for a remote task waiting on the user (ADK-SEMANTICS §5.3). */
export const INPUT_REQUIRED_CALL = "mock_function_call_for_required_user_input";
export const AUTH_REQUIRED_CALL = "mock_function_call_for_required_user_auth";

export const adkParts = (parts: readonly A2aPart[]): Part[] =>
  parts.flatMap((p) => {
    const part = toAdkPart(p);
    return part ? [part] : [];
  });

export const roleOf = (message: A2aMessage): "user" | "model" =>
  message.role === "ROLE_USER" || message.role === "user" ? "user" : "model";

export const isAgentMessage = (m: A2aMessage): boolean => roleOf(m) === "model";

/**
 * For input-required and auth-required: the last text part becomes the mock call, marked long-running,
 * so the turn pauses for the user. With no text part the call is appended with an empty prompt.
 */
export function pauseForUser(
  parts: Part[],
  state: string | number | undefined,
  ctx: ConvertContext,
): { parts: Part[]; longRunningToolIds?: string[] } {
  const name = taskStateName(state);
  if (name !== "input-required" && name !== "auth-required") return { parts };
  if (parts.some((p) => p.functionCall)) return { parts }; // already a call the user answers
  const [callName, argName] =
    name === "input-required"
      ? [INPUT_REQUIRED_CALL, "input_required"]
      : [AUTH_REQUIRED_CALL, "auth_required"];
  const at = parts.findLastIndex((p) => p.text !== undefined && !p.thought);
  const id = ctx.newFunctionCallId();
  const call: Part = { functionCall: { id, name: callName, args: { [argName]: parts[at]?.text ?? "" } } };
  const out = at === -1 ? [...parts, call] : parts.map((p, i) => (i === at ? call : p));
  return { parts: out, longRunningToolIds: [id] };
}

export const markThought = (parts: Part[]): Part[] => parts.map((p) => ({ ...p, thought: true }));

export const modelContent = (parts: Part[]): Content => ({ role: "model", parts });

/** `a2a:task_id` and `a2a:context_id` of a task item (§5.3). */
export const taskIds = (taskId: string, contextId: string | undefined): Record<string, unknown> => ({
  "a2a:task_id": taskId,
  ...(contextId ? { "a2a:context_id": contextId } : {}),
});
