import type { ToolDeclaration } from "../core/llm.js";

/*
 * The declarations ADK Python 1.19 sends for its built-in function tools, field for field: the
 * description is the function's docstring as `inspect` keeps it (inner indentation and the trailing
 * indent included, since the automatic builder reads `__doc__` raw), and `parameters` is left out when
 * the function's only parameter is the tool context. Types are JSON Schema's (lowercase): the AI SDK
 * takes JSON Schema, and Gemini reads both casings. Fixtures: test/unit/fixtures/adk-declarations/.
 */

/** What ADK's `LongRunningFunctionTool` appends to a declaration's description. */
export const LONG_RUNNING_NOTE =
  "NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.";

/** A long-running tool's description, as `LongRunningFunctionTool._get_declaration` writes it. */
export const longRunningDescription = (description: string): string =>
  description === "" ? LONG_RUNNING_NOTE : `${description}\n\n${LONG_RUNNING_NOTE}`;

/** `exit_loop(tool_context)`: no arguments, so no `parameters`. */
export const EXIT_LOOP_DECLARATION: ToolDeclaration = {
  name: "exit_loop",
  description: "Exits the loop.\n\n  Call this function only when you are instructed to do so.\n  ",
};

/** `get_user_choice(options: list[str], tool_context)`, wrapped by `LongRunningFunctionTool`. */
export const GET_USER_CHOICE_DECLARATION: ToolDeclaration = {
  name: "get_user_choice",
  description: longRunningDescription("Provides the options to the user and asks them to choose one."),
  parameters: {
    type: "object",
    properties: { options: { type: "array", items: { type: "string" } } },
    required: ["options"],
  },
};

/** `LoadArtifactsTool._get_declaration`: its `artifact_names` are not required. */
export const LOAD_ARTIFACTS_DECLARATION: ToolDeclaration = {
  name: "load_artifacts",
  description: "Loads the artifacts and adds them to the session.",
  parameters: {
    type: "object",
    properties: { artifact_names: { type: "array", items: { type: "string" } } },
  },
};

/**
 * `LoadMemoryTool._get_declaration`: its description is the tool's `description`, which `FunctionTool`
 * cleans with `inspect.cleandoc` (so, unlike the automatic builder's, dedented and with no trailing indent).
 */
export const LOAD_MEMORY_DECLARATION: ToolDeclaration = {
  name: "load_memory",
  description:
    "Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\nReturns:\n  A list of memory results.",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
};

/** The instruction `LoadMemoryTool.process_llm_request` appends to the system instruction. */
export const LOAD_MEMORY_INSTRUCTION =
  "\nYou have memory. You can use it to answer questions. If any questions need\nyou to look up the memory, you should call load_memory function with a query.\n";

/**
 * `preload_memory` declares nothing: it only adds past conversations to the system instruction, so the
 * model never sees it as a tool. Its name, for YAML and for a tree's tool list.
 */
export const PRELOAD_MEMORY_TOOL_NAME = "preload_memory";
