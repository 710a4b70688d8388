/**
 * Baton's one error type. Every failure Baton raises is a `BatonError` with a code from the closed table
 * below; the table gives each code its HTTP status and who is to blame. Two kinds of code:
 * - `refusal`: a request that cannot be served (bad body, unknown session, busy session). The HTTP
 *   layer answers it; the runner never records it as an event.
 * - `event`: something that went wrong while an agent ran. The runner records it as a stored error
 *   event authored by `agentName`, with this code as `errorCode` (ADK-SEMANTICS §7.3).
 *
 * Adding a code is one line in `ERROR_CODES`.
 */

export type Blame = "user" | "upstream" | "internal";
export type ErrorKind = "refusal" | "event";

interface CodeInfo {
  status: number;
  blame: Blame;
  kind: ErrorKind;
}

const refusal = (status: number, blame: Blame) => ({ status, blame, kind: "refusal" as const });
const event = (status: number, blame: Blame) => ({ status, blame, kind: "event" as const });

/** Every code Baton raises. Request refusals are lower-case (the HTTP `code`), event codes upper-case. */
export const ERROR_CODES = {
  invalid_request: refusal(400, "user"),
  unauthorized: refusal(401, "user"),
  /** An authenticated caller reaching past what its token allows (another user's session, `app:` state). */
  forbidden: refusal(403, "user"),
  not_found: refusal(404, "user"),
  /** A served path asked with a method it does not serve (answered with `Allow`). */
  method_not_allowed: refusal(405, "user"),
  app_not_found: refusal(404, "user"),
  session_not_found: refusal(404, "user"),
  session_exists: refusal(409, "user"),
  session_busy: refusal(409, "user"),
  lease_lost: refusal(409, "internal"),
  /** An append of a turn whose A2A task was canceled: the store recorded the cancel instead. */
  turn_canceled: refusal(409, "user"),
  /** A message that waited for its session was replaced by a newer one (`doubleTexting: "latest"`). */
  message_replaced: refusal(409, "user"),
  payload_too_large: refusal(413, "user"),
  /** A store's budget is spent (an artifact save past the bytes a session or user may keep). */
  quota_exceeded: refusal(413, "user"),
  /** The identity provider's keys (JWKS) could not be read, so no end-user token can be checked. */
  auth_unavailable: refusal(503, "upstream"),
  not_supported: refusal(501, "user"),
  /** The app's own definition is wrong (agent names, model settings): the developer's to fix. */
  invalid_config: refusal(500, "user"),
  /** A store is too busy to answer now (an overloaded Durable Object): try again after `Retry-After`. */
  storage_busy: refusal(503, "internal"),
  /** Stored data this code cannot read (a newer schema version). */
  storage_error: refusal(500, "internal"),
  internal: refusal(500, "internal"),

  MODEL_UNAVAILABLE: event(503, "upstream"),
  MODEL_RATE_LIMITED: event(429, "upstream"),
  MODEL_BAD_REQUEST: event(502, "upstream"),
  MODEL_AUTH_FAILED: event(502, "upstream"),
  MODEL_TIMEOUT: event(504, "upstream"),
  MODEL_NOT_FOUND: event(502, "upstream"),
  MODEL_CONFIG: event(500, "user"),
  MODEL_ERROR: event(502, "upstream"),
  MODEL_RETURNED_NO_CONTENT: event(502, "upstream"),
  LLM_CALLS_LIMIT_EXCEEDED: event(429, "user"),
  TOOL_ERROR: event(500, "user"),
  TOOL_NOT_FOUND: event(500, "upstream"),
  AGENT_ERROR: event(500, "user"),
  TRANSFER_TARGET_NOT_FOUND: event(500, "internal"),
  TRANSFER_NOT_STORED: event(500, "internal"),
  A2A_TASK_FAILED: event(502, "upstream"),
  A2A_CARD_UNAVAILABLE: event(502, "upstream"),
  A2A_REQUEST_FAILED: event(502, "upstream"),
  A2A_TIMEOUT: event(504, "upstream"),
  A2A_PROTOCOL_ERROR: event(502, "upstream"),
  /** An MCP server could not be reached or refused the request (HTTP error, connection refused). */
  MCP_UNAVAILABLE: event(503, "upstream"),
  /** An MCP server did not answer within the toolset's timeout. */
  MCP_TIMEOUT: event(504, "upstream"),
  /** An MCP server answered something that is not MCP (bad JSON, a JSON-RPC error, a malformed result). */
  MCP_PROTOCOL_ERROR: event(502, "upstream"),
  /** Recorded by the store in place of a canceled turn's next event (A2A `tasks/cancel`). */
  TURN_CANCELED: event(409, "user"),
  INTERNAL_ERROR: event(500, "internal"),
  /** The turn's lease lapsed or was taken over, so what it did last could not be stored. */
  LEASE_LOST: event(409, "internal"),
  /** A turn that died (its isolate gone) and could not be resumed: recorded so its message is answered. */
  TURN_NOT_RESUMED: event(500, "internal"),
} as const satisfies Record<string, CodeInfo>;

type Table = typeof ERROR_CODES;
export type ErrorCode = keyof Table;
/** The codes answered as HTTP errors and never recorded. */
export type RequestErrorCode = {
  [K in ErrorCode]: Table[K]["kind"] extends "refusal" ? K : never;
}[ErrorCode];
/** The `errorCode` values Baton writes on error events. Providers' finish reasons (SAFETY, …) pass through. */
export type EventErrorCode = Exclude<ErrorCode, RequestErrorCode>;
/** The codes a failed model call ends with. */
export type ModelErrorCode = Extract<EventErrorCode, `MODEL_${string}`>;

/** The event codes, in table order. */
export const EVENT_ERROR_CODES: readonly EventErrorCode[] = Object.keys(ERROR_CODES).filter(isEventErrorCode);

/** Whether `code` is one of the codes Baton writes on error events. */
export function isEventErrorCode(code: string): code is EventErrorCode {
  return Object.entries(ERROR_CODES).some(([known, info]) => known === code && info.kind === "event");
}

export interface BatonErrorOptions extends ErrorOptions {
  /** The agent that was running when it failed; the error event is authored by it. */
  agentName?: string;
  /** The HTTP status an upstream (model provider, remote agent) answered with. */
  upstreamStatus?: number;
  /** How long a client should wait before trying again (`Retry-After` on the HTTP answer). */
  retryAfterSeconds?: number;
}

/**
 * A failure with a code from `ERROR_CODES`.
 * @example
 * throw new BatonError("TOOL_NOT_FOUND", `Tool '${name}' not found.`);
 */
export class BatonError extends Error {
  override readonly name = "BatonError";
  readonly status: number;
  readonly blame: Blame;
  readonly kind: ErrorKind;
  readonly agentName: string | undefined;
  readonly upstreamStatus: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: BatonErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // closed key: `code` is an `ErrorCode`, a key of the table by its type.
    const info: CodeInfo = ERROR_CODES[code];
    this.status = info.status;
    this.blame = info.blame;
    this.kind = info.kind;
    this.agentName = options.agentName;
    this.upstreamStatus = options.upstreamStatus;
  }

  /** This error attributed to `agentName`, unless an inner agent already claimed it. */
  withAgent(agentName: string): BatonError {
    if (this.agentName !== undefined) return this;
    return new BatonError(this.code, this.message, { ...this.options, agentName });
  }
}

/**
 * Any thrown value as a `BatonError` attributed to `agentName`: a `BatonError` keeps its code, anything
 * else becomes `AGENT_ERROR` with the original as `cause`.
 */
export function asAgentError(error: unknown, agentName: string): BatonError {
  if (error instanceof BatonError) return error.withAgent(agentName);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new BatonError("AGENT_ERROR", message, { agentName, cause: error });
}

/** The `errorCode` and `errorMessage` a failure becomes on an error event. */
export function errorFields(error: unknown): { errorCode: string; errorMessage: string } {
  if (error instanceof BatonError && error.kind === "event") {
    return { errorCode: error.code, errorMessage: error.message };
  }
  if (error instanceof Error)
    return { errorCode: "AGENT_ERROR", errorMessage: `${error.name}: ${error.message}` };
  return { errorCode: "AGENT_ERROR", errorMessage: String(error) };
}
