/** Time and randomness come in through these ports, so the pure folders stay deterministic. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface IdSource {
  /** A random RFC 4122 v4 UUID. */
  uuid(): string;
}

export const newEventId = (ids: IdSource): string => ids.uuid();
/** ADK's invocation ids: `e-` + UUID (Python `new_invocation_context_id`). */
export const newInvocationId = (ids: IdSource): string => `e-${ids.uuid()}`;
/** ADK fills a missing function-call id with `adk-` + UUID. */
export const newFunctionCallId = (ids: IdSource): string => `adk-${ids.uuid()}`;

/** ADK's wire timestamps are float seconds (Python `time.time()`). */
export const toWireSeconds = (ms: number): number => ms / 1000;
