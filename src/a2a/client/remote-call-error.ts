import type { EventErrorCode } from "../../core/errors.js";

/** The A2A codes a remote agent's error events carry (ADK-SEMANTICS §5.6, §5.7; issue 7). */
export type A2aErrorCode = Extract<EventErrorCode, `A2A_${string}`>;

/**
 * A remote call that went wrong: it becomes one error event authored by the remote agent, with
 * `errorCode`, `errorMessage`, these `a2a:*` metadata keys and no content. Never thrown past the agent.
 */
export class RemoteCallError extends Error {
  override readonly name = "RemoteCallError";
  constructor(
    readonly errorCode: A2aErrorCode,
    message: string,
    readonly metadata: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
