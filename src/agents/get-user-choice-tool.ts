import { GET_USER_CHOICE_DECLARATION } from "./builtin-declarations.js";
import type { FunctionTool } from "./function-tool.js";

/**
 * ADK's `get_user_choice`: a long-running tool that offers the user `options`. It returns nothing, so
 * the turn pauses on its call (`longRunningToolIds`) until the client sends the user's choice as the
 * call's function response; it skips summarisation, as ADK's does.
 * @example
 * const picker = new LlmAgent({ name: "picker", instruction: "Offer the plans with get_user_choice.",
 *   tools: [getUserChoice] });
 */
export const getUserChoice: FunctionTool = {
  name: "get_user_choice",
  stateScopes: [],
  description: "Provides the options to the user and asks them to choose one.",
  isLongRunning: true,
  declaration: () => structuredClone(GET_USER_CHOICE_DECLARATION),
  async run(args, ctx) {
    const options = args.options;
    if (!Array.isArray(options) || !options.every((option) => typeof option === "string")) {
      return { ok: false, error: "Invalid arguments for get_user_choice: options must be a list of strings" };
    }
    ctx.actions.skipSummarization = true;
    return { ok: true, value: null };
  },
};
