import { BatonError, type EventErrorCode } from "../../core/errors.js";

/** The A2A codes a remote agent's error events carry (ADK-SEMANTICS §5.6, §5.7; issue 7). */
export type A2aErrorCode = Extract<EventErrorCode, `A2A_${string}`>;

/**
 * A remote call that went wrong: a `BatonError` with an `A2A_*` code plus the `a2a:*` metadata keys its
 * error event carries. The agent turns it into one error event with no content; it never escapes the turn.
 */
export class RemoteCallError extends BatonError {
  constructor(
    readonly errorCode: A2aErrorCode,
    message: string,
    readonly metadata: Record<string, unknown> = {},
    options?: ErrorOptions,
  ) {
    const status = metadata["a2a:status_code"];
    super(errorCode, message, {
      ...(options?.cause === undefined ? {} : { cause: options.cause }),
      ...(typeof status === "string" ? { upstreamStatus: Number(status) } : {}),
    });
  }
}
