import { EXIT_LOOP_DECLARATION } from "./builtin-declarations.js";
import type { FunctionTool } from "./function-tool.js";

/**
 * ADK's `exit_loop`: ends every enclosing LoopAgent. It escalates and skips summarisation, so the
 * calling agent stops right after the tool's response. Declared as ADK declares it (no `parameters`).
 * @example
 * const critic = new LlmAgent({ name: "critic", instruction: "Call exit_loop when the draft is good.",
 *   tools: [exitLoop] });
 */
export const exitLoop: FunctionTool = {
  name: "exit_loop",
  stateScopes: [],
  description: "Exits the loop.\n\nCall this function only when you are instructed to do so.",
  isLongRunning: false,
  declaration: () => structuredClone(EXIT_LOOP_DECLARATION),
  async run(_args, ctx) {
    ctx.actions.escalate = true;
    ctx.actions.skipSummarization = true;
    return { ok: true, value: null };
  },
};
