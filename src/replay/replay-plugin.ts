import { AgentTool } from "../agents/agent-tool.js";
import type { CallbackContext } from "../agents/callback-context.js";
import { LlmAgent } from "../agents/llm-agent.js";
import type { RunPlugin } from "../agents/plugins.js";
import { differences } from "./differences.js";
import { toLlmResponse } from "./recorded-response.js";
import { lookupIn, ReplayMismatch, rawReplayConfig } from "./replay-config.js";
import { nextRecording, replayOf, unusedRecordings } from "./replay-cursor.js";
import { requestProblems } from "./request-check.js";

export { REPLAY_CONFIG_KEYS, ReplayMismatch } from "./replay-config.js";

/** This invocation's replay, or `undefined` when its session state holds no `_adk_replay_config`. */
const replayIn = (ctx: CallbackContext) => {
  const raw = rawReplayConfig((key) => ctx.state.get(key));
  return raw === undefined ? undefined : replayOf(raw);
};

function llmAgentOf(ctx: CallbackContext): LlmAgent {
  const agent = ctx.invocation.agent;
  if (!(agent instanceof LlmAgent)) throw new ReplayMismatch(`agent ${agent.name} is not an LlmAgent`);
  return agent;
}

/**
 * ADK's ReplayPlugin as a Baton plugin: on when the session state holds `_adk_replay_config` (sent as
 * the run's `stateDelta`, as ADK's runner does), off otherwise. Each model call of agent A in turn i is
 * checked against the next recorded `llm_request` for (A, i) and answered with its recorded response;
 * each tool call is checked against the next `tool_recording` and answered with its response. A
 * mismatch throws, so the agent's error event carries the whole difference; so does a turn that ends
 * with recordings left unused. `createWorker` adds it only when the var `ADK_REPLAY` is `"true"`.
 */
export const adkReplayPlugin: RunPlugin = {
  name: "adk_replay",
  // It reads `_adk_replay_config` (or its `temp:` form) only: turns need no shared scope for it.
  stateScopes: [],
  beforeModel: (ctx, request) => {
    const replay = replayIn(ctx);
    if (replay === undefined) return undefined;
    const agent = llmAgentOf(ctx);
    const turn = replay.config.user_message_index;
    const { index, recording } = nextRecording(replay, agent.name, "llm");
    const llm = recording.llm_recording;
    if (llm === undefined) throw new ReplayMismatch("unreachable: an llm slot without llm_recording");
    const problems = requestProblems(request, llm.llm_request, agent);
    if (problems.length > 0) {
      throw new ReplayMismatch(
        `LLM request mismatch in turn ${turn} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
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
  beforeTool: async (tool, args, ctx) => {
    const replay = replayIn(ctx);
    if (replay === undefined) return undefined;
    const agent = llmAgentOf(ctx);
    const { index, recording } = nextRecording(replay, agent.name, "tool");
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
        `Tool call mismatch in turn ${replay.config.user_message_index} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
      );
    }
    // The transfer runs as it always does: running it is what transfers.
    if (tool === agent.transferTool) return undefined;
    // As ADK's ReplayPlugin: every other tool still runs for its side effects (state, escalate), except an
    // AgentTool, whose agent is not run; the recorded response is the result either way.
    if (!(tool instanceof AgentTool)) await tool.run(args, ctx);
    return response.response;
  },
  afterRun: (ctx) => {
    const raw = rawReplayConfig(lookupIn(ctx.session.state));
    if (raw === undefined) return;
    const unused = unusedRecordings(replayOf(raw));
    if (unused.length > 0) throw new ReplayMismatch(unused.join("\n"));
  },
};
