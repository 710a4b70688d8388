import { z } from "zod";
import type { CallbackContext } from "../agents/callback-context.js";
import { LlmAgent } from "../agents/llm-agent.js";
import type { RunPlugin } from "../agents/plugins.js";
import type { Session } from "../core/session.js";
import { differences } from "./differences.js";
import { toLlmResponse } from "./recorded-response.js";
import { type Recording, RecordingsSchema } from "./recordings.js";
import { requestProblems } from "./request-check.js";

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

type Kind = "llm" | "tool";

/** The turn's replay config from state, or `undefined` when this invocation is not a replay. */
export function replayConfigOf(ctx: CallbackContext): ReplayConfig | undefined {
  const raw = REPLAY_CONFIG_KEYS.map((key) => ctx.state.get(key)).find((v) => v !== undefined);
  if (raw === undefined) return undefined;
  const parsed = ReplayConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new ReplayMismatch(`_adk_replay_config is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** How many recordings of each (turn, agent, kind) this invocation has used. */
const cursors = new WeakMap<Session, Map<string, number>>();

/** The next recording of `kind` for this turn and agent, counted as used (ADK's per-agent replay index). */
function next(
  ctx: CallbackContext,
  config: ReplayConfig,
  kind: Kind,
): { index: number; recording: Recording } {
  const { recordings } = config;
  if (recordings === undefined) {
    throw new ReplayMismatch(
      "_adk_replay_config has no recordings: a Worker cannot read dir, so the runner must send them inline",
    );
  }
  const turn = config.user_message_index;
  const agent = ctx.agentName;
  const used = cursors.get(ctx.invocation.session) ?? new Map<string, number>();
  cursors.set(ctx.invocation.session, used);
  const key = `${turn} ${agent} ${kind}`;
  const index = used.get(key) ?? 0;
  const recording = recordings.recordings.filter(
    (r) =>
      r.user_message_index === turn &&
      r.agent_name === agent &&
      (kind === "llm") === (r.llm_recording !== undefined),
  )[index];
  if (recording === undefined) {
    const what = kind === "llm" ? "LLM requests" : "tool calls";
    throw new ReplayMismatch(
      `Runtime sent more ${what} than expected for agent '${agent}' at user_message_index ${turn}`,
    );
  }
  used.set(key, index + 1);
  return { index, recording };
}

function llmAgentOf(ctx: CallbackContext): LlmAgent {
  const agent = ctx.invocation.agent;
  if (!(agent instanceof LlmAgent)) throw new ReplayMismatch(`agent ${agent.name} is not an LlmAgent`);
  return agent;
}

/**
 * ADK's ReplayPlugin as a Baton plugin: on when the session state holds `_adk_replay_config` (sent as
 * the run's `stateDelta`, as ADK's runner does), off otherwise. Each model call of agent A in turn i is
 * checked against the next recorded `llm_request` for (A, i) and answered with its recorded response;
 * each tool call is checked against the next `tool_recording` and answered with its response, except
 * `transfer_to_agent`, which really runs (running it is what transfers). A mismatch throws, so the
 * agent's error event carries the whole difference.
 */
export const adkReplayPlugin: RunPlugin = {
  name: "adk_replay",
  beforeModel: (ctx, request) => {
    const config = replayConfigOf(ctx);
    if (config === undefined) return undefined;
    const agent = llmAgentOf(ctx);
    const { index, recording } = next(ctx, config, "llm");
    const llm = recording.llm_recording;
    if (llm === undefined) throw new ReplayMismatch("unreachable: an llm slot without llm_recording");
    const problems = requestProblems(request, llm.llm_request, agent);
    if (problems.length > 0) {
      throw new ReplayMismatch(
        `LLM request mismatch in turn ${config.user_message_index} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
      );
    }
    const responses = llm.llm_responses ?? (llm.llm_response ? [llm.llm_response] : []);
    const [response, ...more] = responses.map(toLlmResponse);
    // A beforeModel answer is one response; a streamed list (SSE partials) is not replayed yet.
    if (response === undefined || more.length > 0) {
      throw new ReplayMismatch(`replay of ${responses.length} responses is not supported`);
    }
    return response;
  },
  beforeTool: (tool, args, ctx) => {
    const config = replayConfigOf(ctx);
    if (config === undefined) return undefined;
    const agent = llmAgentOf(ctx);
    const { index, recording } = next(ctx, config, "tool");
    const toolRecording = recording.tool_recording;
    if (toolRecording === undefined)
      throw new ReplayMismatch("unreachable: a tool slot without tool_recording");
    const { tool_call: call, tool_response: response } = toolRecording;
    const problems = [
      ...(call.name === tool.name ? [] : [`name: recorded ${call.name}, called ${tool.name}`]),
      ...differences(call.args ?? {}, args, "args"),
    ];
    if (problems.length > 0) {
      throw new ReplayMismatch(
        `Tool call mismatch in turn ${config.user_message_index} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
      );
    }
    // Python runs every real tool for its side effects; Baton runs the transfer (its side effect is the
    // transfer) and answers the others with the recorded response.
    return tool === agent.transferTool ? undefined : response.response;
  },
};
