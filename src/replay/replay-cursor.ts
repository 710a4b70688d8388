import type { Recording } from "./recordings.js";
import { parseReplayConfig, type ReplayConfig, ReplayMismatch } from "./replay-config.js";

type Kind = "llm" | "tool";

interface Replay {
  config: ReplayConfig;
  /** How many recordings of each (agent, kind) this turn has used (ADK's per-agent replay index). */
  used: Map<string, number>;
}

/**
 * One replay per raw `_adk_replay_config` object: the invocation reads the same object from its session
 * state throughout, and an AgentTool's own run gets a shallow copy of that state, so it shares the count.
 */
const replays = new WeakMap<object, Replay>();

/** The turn's replay, parsed once. */
export function replayOf(raw: object): Replay {
  const found = replays.get(raw);
  if (found !== undefined) return found;
  const replay = { config: parseReplayConfig(raw), used: new Map<string, number>() };
  replays.set(raw, replay);
  return replay;
}

const slot = (agent: string, kind: Kind) => `${agent} ${kind}`;

/** The turn's recordings of `kind` made by `agent`, in order. */
function recordingsOf({ config }: Replay, agent: string, kind: Kind): Recording[] {
  const { recordings } = config;
  if (recordings === undefined) {
    throw new ReplayMismatch(
      "_adk_replay_config has no recordings: a Worker cannot read dir, so the runner must send them inline",
    );
  }
  return recordings.recordings.filter(
    (r) =>
      r.user_message_index === config.user_message_index &&
      r.agent_name === agent &&
      (kind === "llm") === (r.llm_recording !== undefined),
  );
}

/** The next recording of `kind` for `agent` in this turn, counted as used; throws when none is left. */
export function nextRecording(
  replay: Replay,
  agent: string,
  kind: Kind,
): { index: number; recording: Recording } {
  const index = replay.used.get(slot(agent, kind)) ?? 0;
  const recording = recordingsOf(replay, agent, kind)[index];
  if (recording === undefined) {
    const what = kind === "llm" ? "LLM requests" : "tool calls";
    throw new ReplayMismatch(
      `Runtime sent more ${what} than expected for agent '${agent}' at user_message_index ${replay.config.user_message_index}`,
    );
  }
  replay.used.set(slot(agent, kind), index + 1);
  return { index, recording };
}

/** The recordings of this turn no call used, one line per (agent, kind). */
export function unusedRecordings(replay: Replay): string[] {
  const turn = replay.config.user_message_index;
  const agents = new Set(
    (replay.config.recordings?.recordings ?? [])
      .filter((r) => r.user_message_index === turn)
      .map((r) => r.agent_name),
  );
  return [...agents].flatMap((agent) =>
    (["llm", "tool"] as const).flatMap((kind) => {
      const left = recordingsOf(replay, agent, kind).length - (replay.used.get(slot(agent, kind)) ?? 0);
      return left > 0
        ? [`${left} unused turn ${turn} ${agent} ${kind} recording(s): Baton made fewer calls than recorded`]
        : [];
    }),
  );
}
