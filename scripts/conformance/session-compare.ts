import { differences } from "../../src/replay/differences.js";
import { asJson, genaiToCamel, isRecord } from "../../src/replay/genai-keys.js";
import { REPLAY_CONFIG_KEYS } from "../../src/replay/replay-plugin.js";
import type { ExpectedSession } from "./case-files.js";

/** Event fields Python's `_replay_validators.py` leaves out (ids, times, and what only Python mints). */
const EXCLUDED_EVENT_FIELDS = ["id", "timestamp", "invocationId", "longRunningToolIds"];
/** Keys the comparison leaves out of state and state deltas (PROTOCOL §3.3). */
const REPLAY_STATE_KEYS: readonly string[] = [...REPLAY_CONFIG_KEYS, "_adk_recordings_config"];
const EXCLUDED_ACTIONS = ["requestedAuthConfigs", "requestedToolConfirmations"];
/** pydantic `EventActions` defaults: `model_dump` writes them on both sides, so both sides get them. */
const ACTION_DEFAULTS = { stateDelta: {}, artifactDelta: {} };

const withoutReplayKeys = (state: unknown): unknown =>
  isRecord(state)
    ? Object.fromEntries(Object.entries(state).filter(([k]) => !REPLAY_STATE_KEYS.includes(k)))
    : state;

/** One event as Python compares it, in Baton's camelCase wire form. */
export function comparableEvent(event: unknown): unknown {
  const copy = asJson(event);
  if (!isRecord(copy)) return copy;
  for (const field of EXCLUDED_EVENT_FIELDS) delete copy[field];
  const actions: Record<string, unknown> = {
    ...ACTION_DEFAULTS,
    ...(isRecord(copy.actions) ? copy.actions : {}),
  };
  for (const field of EXCLUDED_ACTIONS) delete actions[field];
  actions.stateDelta = withoutReplayKeys(actions.stateDelta);
  copy.actions = actions;
  const parts = isRecord(copy.content) && Array.isArray(copy.content.parts) ? copy.content.parts : [];
  for (const part of parts.filter(isRecord)) {
    delete part.thoughtSignature;
    if (isRecord(part.functionCall)) delete part.functionCall.id;
    if (isRecord(part.functionResponse)) delete part.functionResponse.id;
  }
  return copy;
}

/**
 * How Baton's session (`GET …/sessions/:id`, camelCase JSON) differs from `generated-session.yaml`, by
 * PROTOCOL §3.3: `appName`, `userId` and `state` (minus the replay keys), then the events pairwise and in
 * order, with the excluded fields removed and the action defaults applied to both sides.
 */
export function sessionDifferences(expected: ExpectedSession, actual: unknown): string[] {
  if (!isRecord(actual)) return [`session: expected an object, got ${JSON.stringify(actual)}`];
  const problems = [
    ...differences(expected.app_name, actual.appName, "session.appName"),
    ...differences(expected.user_id, actual.userId, "session.userId"),
    ...differences(withoutReplayKeys(expected.state), withoutReplayKeys(actual.state), "session.state"),
  ];
  const events = Array.isArray(actual.events) ? actual.events : [];
  const authors = (list: readonly unknown[]) => list.map((e) => (isRecord(e) ? e.author : e)).join(", ");
  if (events.length !== expected.events.length) {
    problems.push(
      `session.events: expected ${expected.events.length} events (${authors(expected.events)}), ` +
        `got ${events.length} (${authors(events)})`,
    );
  }
  for (const [i, want] of expected.events.entries()) {
    if (i >= events.length) break;
    const wanted = comparableEvent(genaiToCamel(want));
    problems.push(...differences(wanted, comparableEvent(events[i]), `session.events[${i}]`));
  }
  return problems;
}
