import type { LlmRequest } from "../core/llm.js";
import { memoryText } from "../core/memory.js";
import {
  LOAD_MEMORY_DECLARATION,
  LOAD_MEMORY_INSTRUCTION,
  PRELOAD_MEMORY_TOOL_NAME,
} from "./builtin-declarations.js";
import type { FunctionTool } from "./function-tool.js";
import { appendInstructions, type RequestTool, type RequestToolContext } from "./request-tool.js";

/**
 * ADK's `load_memory` tool: the model calls it with a query and gets `{memories: [...]}` (ADK's
 * `LoadMemoryResponse`) from the user's memory; each request of an agent that has it says it has memory.
 * @example
 * new LlmAgent({ name: "assistant", model: "google:gemini-2.5-flash", tools: [loadMemoryTool] });
 */
export const loadMemoryTool: FunctionTool = {
  name: LOAD_MEMORY_DECLARATION.name,
  description: LOAD_MEMORY_DECLARATION.description,
  isLongRunning: false,
  stateScopes: [],
  declaration: () => structuredClone(LOAD_MEMORY_DECLARATION),
  async run(args, ctx) {
    if (typeof args.query !== "string")
      return { ok: false, error: "Invalid arguments for load_memory: query must be a string." };
    const { memories } = await ctx.searchMemory(args.query);
    return { ok: true, value: { memories } };
  },
  processRequest(request: LlmRequest) {
    appendInstructions(request, [LOAD_MEMORY_INSTRUCTION]);
  },
};

/** The block ADK's `PreloadMemoryTool` adds to the system instruction. */
export const pastConversations = (lines: readonly string[]): string =>
  `The following content is from your previous conversations with the user.
They may be useful for answering the user's current query.
<PAST_CONVERSATIONS>
${lines.join("\n")}
</PAST_CONVERSATIONS>
`;

/**
 * ADK's `preload_memory`: never called by the model. Before each request it searches the user's memory
 * with the text of the user's message and, when something matches, adds those past conversations to the
 * system instruction (`Time: …` and `author: text` lines, as ADK writes them).
 * @example
 * new LlmAgent({ name: "assistant", model: "google:gemini-2.5-flash", tools: [preloadMemoryTool] });
 */
export const preloadMemoryTool: RequestTool = {
  kind: "request",
  name: PRELOAD_MEMORY_TOOL_NAME,
  async processRequest(request: LlmRequest, ctx: RequestToolContext) {
    const query = ctx.userContent?.parts?.[0]?.text;
    if (!query || !ctx.callbackContext) return;
    const { memories } = await ctx.callbackContext.searchMemory(query);
    const lines = memories.flatMap((memory) => {
      const text = memoryText(memory.content);
      return [
        ...(memory.timestamp ? [`Time: ${memory.timestamp}`] : []),
        ...(text ? [memory.author ? `${memory.author}: ${text}` : text] : []),
      ];
    });
    if (lines.length > 0) appendInstructions(request, [pastConversations(lines)]);
  },
};
