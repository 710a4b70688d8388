import { RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { BatonError } from "../../core/errors.js";
import { type IdLimit, idProblem } from "../../core/limits.js";

/** `-32001`: no such task (or an id this server never made). */
export const taskNotFound = (taskId: string) => new TaskNotFoundError(`Task not found: ${taskId}`);

/**
 * `-32004` for a message to a context whose turn is still running (the session's lease): the client can
 * resubscribe to the running task (its id is in the error's `metadata.taskId`) or cancel it, then send again.
 */
export function contextBusy(contextId: string, taskId: string | null): UnsupportedOperationError {
  const running = taskId ? ` with task ${taskId}` : "";
  return new UnsupportedOperationError({
    message: `Context ${contextId} is busy${running}: only one task runs per context at a time. Resubscribe to it or cancel it, then send again.`,
    metadata: { reason: "CONTEXT_BUSY", contextId, taskId: taskId ?? "" },
  });
}

/** A Baton refusal as the A2A error a client can act on; anything else is rethrown (an internal error). */
export function toA2aError(error: unknown): unknown {
  if (!(error instanceof BatonError)) return error;
  if (error.code === "invalid_request") return new RequestMalformedError(error.message);
  return error;
}

/** `-32602` naming the limit when an id a client sent (`field`) breaks it (core/limits.ts). */
export function assertA2aId(limit: IdLimit, value: string | undefined, field: string): void {
  const problem = value ? idProblem(limit, value) : null;
  if (problem !== null) throw new RequestMalformedError(`Invalid params: ${field}: ${problem}.`);
}
