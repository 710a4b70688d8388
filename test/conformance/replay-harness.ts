import { z } from "zod";
import type { CallbackContext } from "../../src/agents/callback-context.js";
import type { BeforeModelCallback, BeforeToolCallback } from "../../src/agents/callbacks.js";
import { LlmAgent } from "../../src/agents/llm-agent.js";
import type { LlmResponse } from "../../src/core/llm.js";
import { differences } from "../../src/replay/differences.js";
import { toLlmResponse } from "../../src/replay/recorded-response.js";
import { requestProblems } from "../../src/replay/request-check.js";
import type { LlmRecording, Recording, Recordings, ToolRecording } from "./case-files.js";

/** The state keys that switch replay on (PROTOCOL §3.2; newer Python also reads the `temp:` form). */
export const REPLAY_CONFIG_KEYS = ["_adk_replay_config", "temp:_adk_replay_config"] as const;
/** Keys the comparator leaves out of state and state deltas. */
export const REPLAY_STATE_KEYS: readonly string[] = [...REPLAY_CONFIG_KEYS, "_adk_recordings_config"];

const ReplayConfigSchema = z.object({
  dir: z.string(),
  user_message_index: z.number().int().nonnegative(),
  streaming_mode: z.enum(["none", "sse"]).optional(),
});

/** A replay check failed: the turn stops here and the case fails with this message. */
export class ReplayMismatch extends Error {
  override readonly name = "ReplayMismatch";
}

type Kind = "llm" | "tool";

/**
 * ADK's ReplayPlugin on Baton's own hooks. Every agent gets `beforeModel` and `beforeTool`; they learn the
 * turn from the session state's `_adk_replay_config.user_message_index` (sent as the run's `stateDelta`,
 * as the Python runner does), take the next recording for (turn, agent) in order, check the live call
 * against it, and answer with the recorded response. The real `transfer_to_agent` still runs: running it
 * is what sets `actions.transferToAgent`. Every failure is kept in `problems` with its full text.
 */
export class ReplayHarness {
  readonly problems: string[] = [];
  readonly #used = new Map<string, number>();

  constructor(
    readonly caseDir: string,
    readonly recordings: Recordings,
  ) {}

  readonly beforeModel: BeforeModelCallback = (ctx, request) => {
    const agent = this.#llmAgent(ctx);
    const { turn, index, recording } = this.#next(ctx, "llm");
    const llm: LlmRecording | undefined = recording.llm_recording;
    if (!llm) throw this.#fail("unreachable: an llm slot without llm_recording");
    const problems = requestProblems(request, llm.llm_request, agent);
    if (problems.length > 0) {
      throw this.#fail(
        `LLM request mismatch in turn ${turn} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
      );
    }
    const responses = llm.llm_responses ?? (llm.llm_response ? [llm.llm_response] : []);
    const [response, ...more] = responses.map(toLlmResponse);
    // Baton's beforeModel answers with one response; a streamed list (SSE partials) needs another hook.
    if (!response || more.length > 0)
      throw this.#fail(`replay of ${responses.length} responses is not supported`);
    return response satisfies LlmResponse;
  };

  readonly beforeTool: BeforeToolCallback = (tool, args, ctx) => {
    const agent = this.#llmAgent(ctx);
    const { turn, index, recording } = this.#next(ctx, "tool");
    const toolRecording: ToolRecording | undefined = recording.tool_recording;
    if (!toolRecording) throw this.#fail("unreachable: a tool slot without tool_recording");
    const { tool_call: call, tool_response: response } = toolRecording;
    const problems = [
      ...(call.name === tool.name ? [] : [`name: recorded ${call.name}, called ${tool.name}`]),
      ...differences(call.args ?? {}, args, "args"),
    ];
    if (problems.length > 0) {
      throw this.#fail(
        `Tool call mismatch in turn ${turn} for agent '${agent.name}' (index ${index}):\n  ${problems.join("\n  ")}`,
      );
    }
    // Python runs every real tool; Baton skips a tool whose beforeTool answers, so only transfer runs.
    return tool === agent.transferTool ? undefined : response.response;
  };

  /** The `error_code`s the recorded responses carry: error events Python produced too, so not failures. */
  recordedErrorCodes(): Set<string> {
    const responses = this.recordings.recordings.flatMap((r) => {
      const llm = r.llm_recording;
      return llm?.llm_responses ?? (llm?.llm_response ? [llm.llm_response] : []);
    });
    return new Set(
      responses.flatMap((response) => (typeof response.error_code === "string" ? [response.error_code] : [])),
    );
  }

  /** The recordings no call consumed: Baton made fewer calls than Python did. */
  unusedRecordings(): string[] {
    const total = new Map<string, number>();
    for (const r of this.recordings.recordings) {
      const key = slotKey(r.user_message_index, r.agent_name, r.llm_recording ? "llm" : "tool");
      total.set(key, (total.get(key) ?? 0) + 1);
    }
    return [...total].flatMap(([key, count]) => {
      const used = this.#used.get(key) ?? 0;
      return used < count
        ? [`${count - used} unused ${key} recording(s): Baton made fewer calls than recorded`]
        : [];
    });
  }

  #llmAgent(ctx: CallbackContext): LlmAgent {
    const agent = ctx.invocation.agent;
    if (!(agent instanceof LlmAgent)) throw this.#fail(`agent ${agent.name} is not an LlmAgent`);
    return agent;
  }

  /** The next recording of `kind` for the current turn and agent, counting it as used. */
  #next(ctx: CallbackContext, kind: Kind): { turn: number; index: number; recording: Recording } {
    const turn = this.#turn(ctx);
    const agent = ctx.agentName;
    const key = slotKey(turn, agent, kind);
    const index = this.#used.get(key) ?? 0;
    const recording = this.recordings.recordings.filter(
      (r) =>
        r.user_message_index === turn &&
        r.agent_name === agent &&
        (kind === "llm") === (r.llm_recording !== undefined),
    )[index];
    if (!recording) {
      const what = kind === "llm" ? "LLM requests" : "tool calls";
      throw this.#fail(
        `Runtime sent more ${what} than expected for agent '${agent}' at user_message_index ${turn}`,
      );
    }
    this.#used.set(key, index + 1);
    return { turn, index, recording };
  }

  #turn(ctx: CallbackContext): number {
    const raw = REPLAY_CONFIG_KEYS.map((key) => ctx.state.get(key)).find((v) => v !== undefined);
    const config = ReplayConfigSchema.safeParse(raw);
    if (!config.success)
      throw this.#fail(`no valid _adk_replay_config in session state: ${JSON.stringify(raw)}`);
    if (config.data.dir !== this.caseDir) {
      throw this.#fail(`_adk_replay_config.dir is ${config.data.dir}, this harness replays ${this.caseDir}`);
    }
    return config.data.user_message_index;
  }

  #fail(message: string): ReplayMismatch {
    this.problems.push(message);
    return new ReplayMismatch(message);
  }
}

const slotKey = (turn: number, agent: string, kind: Kind): string => `turn ${turn} ${agent} ${kind}`;
