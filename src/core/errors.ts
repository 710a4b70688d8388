/**
 * Two kinds of failure. `BatonError` is a request that cannot be served (HTTP status, who is to blame).
 * `AgentFailure` is something that went wrong while an agent ran; the runner turns it into a persisted
 * error event with a stable `errorCode` (ADK-SEMANTICS §7.3).
 */

export type Blame = "user" | "upstream" | "internal";

const REQUEST_ERRORS = {
  invalid_request: { status: 400, blame: "user" },
  unauthorized: { status: 401, blame: "user" },
  not_found: { status: 404, blame: "user" },
  app_not_found: { status: 404, blame: "user" },
  session_not_found: { status: 404, blame: "user" },
  session_exists: { status: 409, blame: "user" },
  session_busy: { status: 409, blame: "user" },
  lease_lost: { status: 409, blame: "internal" },
  turn_canceled: { status: 409, blame: "user" },
  payload_too_large: { status: 413, blame: "user" },
  not_supported: { status: 501, blame: "user" },
  internal: { status: 500, blame: "internal" },
} as const satisfies Record<string, { status: number; blame: Blame }>;

export type RequestErrorCode = keyof typeof REQUEST_ERRORS;

export class BatonError extends Error {
  override readonly name = "BatonError";
  readonly status: number;
  readonly blame: Blame;

  constructor(
    readonly code: RequestErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.status = REQUEST_ERRORS[code].status;
    this.blame = REQUEST_ERRORS[code].blame;
  }
}

/** The `errorCode` values Baton writes on error events. Providers' finish reasons (SAFETY, …) pass through. */
export const EVENT_ERROR_CODES = [
  "MODEL_UNAVAILABLE",
  "MODEL_RATE_LIMITED",
  "MODEL_BAD_REQUEST",
  "MODEL_AUTH_FAILED",
  "MODEL_TIMEOUT",
  "MODEL_NOT_FOUND",
  "MODEL_CONFIG",
  "MODEL_ERROR",
  "MODEL_RETURNED_NO_CONTENT",
  "LLM_CALLS_LIMIT_EXCEEDED",
  "TOOL_ERROR",
  "TOOL_NOT_FOUND",
  "AGENT_ERROR",
  "A2A_TASK_FAILED",
  "TURN_CANCELED",
  "INTERNAL_ERROR",
] as const;
export type EventErrorCode = (typeof EVENT_ERROR_CODES)[number];

/** A failure that should end the turn as an error event with this `errorCode`. */
export class AgentFailure extends Error {
  override readonly name: string = "AgentFailure";
  constructor(
    readonly errorCode: EventErrorCode | (string & {}),
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The `errorCode` and `errorMessage` an arbitrary thrown value becomes on an error event. */
export function errorFields(error: unknown): { errorCode: string; errorMessage: string } {
  if (error instanceof AgentFailure) return { errorCode: error.errorCode, errorMessage: error.message };
  if (error instanceof Error)
    return { errorCode: "AGENT_ERROR", errorMessage: `${error.name}: ${error.message}` };
  return { errorCode: "AGENT_ERROR", errorMessage: String(error) };
}
