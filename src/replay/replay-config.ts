import * as z from "zod";
import type { StateMap } from "../core/state.js";
import { RecordingsSchema } from "./recordings.js";

/** The state keys that switch replay on (ADK's ReplayPlugin; newer Python also reads the `temp:` form). */
export const REPLAY_CONFIG_KEYS = ["_adk_replay_config", "temp:_adk_replay_config"] as const;

/**
 * `_adk_replay_config` as ADK's conformance runner sends it in the run's `stateDelta`, plus the
 * recordings themselves: a Worker has no disk to read `<dir>/generated-recordings.yaml` from.
 */
export const ReplayConfigSchema = z.object({
  dir: z.string(),
  user_message_index: z.number().int().nonnegative(),
  streaming_mode: z.enum(["none", "sse"]).optional(),
  recordings: RecordingsSchema.optional(),
});
export type ReplayConfig = z.infer<typeof ReplayConfigSchema>;

/** A replay check failed; the agent's error event carries this message and the case fails. */
export class ReplayMismatch extends Error {
  override readonly name = "ReplayMismatch";
}

/** The raw `_adk_replay_config` value in `state`, or `undefined` when this invocation is not a replay. */
export const rawReplayConfig = (state: (key: string) => unknown): object | undefined => {
  const raw = REPLAY_CONFIG_KEYS.map(state).find((value) => value !== undefined);
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null)
    throw new ReplayMismatch(`_adk_replay_config must be an object, got ${JSON.stringify(raw)}`);
  return raw;
};

/** The parsed config; throws `ReplayMismatch` naming what is wrong with it. */
export function parseReplayConfig(raw: object): ReplayConfig {
  const parsed = ReplayConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new ReplayMismatch(`_adk_replay_config is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A state map as the lookup `rawReplayConfig` takes. */
export const lookupIn =
  (state: StateMap) =>
  (key: string): unknown =>
    state[key];
