import type { CallToolResult, InputRequiredResult, ServerContext, Tool } from "@modelcontextprotocol/server";

/**
 * What a served tool's handler gets besides its arguments: the SDK's (v2) request context, `ctx.mcpReq`
 * (`notify` for progress and logs, `envelope` on a 2026-07-28 request, `inputResponses` on its retry).
 */
export type McpRequestExtra = ServerContext;

/** A tool served beside an app's turn tool (`mcpServer({ tools })`). */
export interface McpServedTool {
  /** The tool as `tools/list` shows it. */
  readonly tool: Tool;
  /**
   * Answers a `tools/call` of it; `extra.mcpReq.notify` sends progress and log notifications on the call's
   * stream. Under 2026-07-28 it may answer `inputRequired(…)` (the SDK's builder) and read the client's
   * answers from `extra.mcpReq.inputResponses` when the client retries.
   */
  call(args: Record<string, unknown>, extra: McpRequestExtra): McpToolAnswer | Promise<McpToolAnswer>;
  /**
   * Runs as a task of MCP's Tasks extension (2026-07-28, decision 057): `"optional"`, a call from a client
   * that declared the extension answers a task at once and `call` runs after the answer (`waitUntil`), its
   * answer read with `tasks/get`; `"required"`, a call from any other client is refused (`-32021`). Unset,
   * never a task. A task's handler may answer `inputRequired(…)`: the task waits (`input_required`) until
   * `tasks/update` has brought an answer to every request, then `call` runs again with them, as on a retry.
   */
  readonly task?: "optional" | "required";
  /**
   * For a task (`task` set, the extension declared): asks in the request before the task starts, as a
   * 2026-07-28 multi round-trip call. An `inputRequired(…)` answer goes back to the client, whose retry
   * comes here again with the answers in `extra.mcpReq.inputResponses`; `undefined` starts the task, and
   * `call` reads those same answers. Unset, the task starts at once.
   */
  askFirst?(
    args: Record<string, unknown>,
    extra: McpRequestExtra,
  ): InputRequiredResult | undefined | Promise<InputRequiredResult | undefined>;
}

/** What a `tools/call` handler answers: a result, or (2026-07-28) the input it needs first. */
export type McpToolAnswer = CallToolResult | InputRequiredResult;
