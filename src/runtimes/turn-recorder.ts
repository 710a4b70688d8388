import { ToolContext } from "../agents/callback-context.js";
import type { FunctionTool } from "../agents/function-tool.js";
import type { InvocationContext } from "../agents/invocation-context.js";
import type { ToolCallbacks } from "../agents/tool-execution.js";
import { type CallOutcome, runToolCall } from "../agents/tool-execution.js";
import type { FunctionCall } from "../core/content.js";
import { argumentsSchema, type ToolDeclaration } from "../core/llm.js";
import type { AgentNode } from "../router/agent-node.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { resolveTransfer } from "../transfer/resolve-transfer.js";
import { transferFromOutput, transferOutput } from "../transfer/transfer-output.js";
import type { RuntimeStep, RuntimeTool } from "./agent-runtime.js";

/** What the foreign loop is told about a long-running call that now waits for the user. */
const PENDING_OUTPUT = { status: "pending", message: "Waiting for the user's answer." };

/**
 * One runtime turn's tool calls: runs each through Baton's tool lifecycle as the foreign loop calls it,
 * keeps the outcome by call id for the events, and knows which results end the loop.
 */
export class TurnRecorder {
  private readonly outcomes = new Map<string, CallOutcome>();
  private readonly pausing = new Set<string>();
  /** A tool failure no `onToolError` handled: the loop stops and the turn fails with it. */
  failure: unknown;

  constructor(
    private readonly ctx: InvocationContext,
    private readonly agent: AgentNode,
    private readonly tools: ReadonlyMap<string, FunctionTool>,
    private readonly callbacks: ToolCallbacks,
  ) {}

  /** The offered tools (after `beforeModel`) in the runtime's neutral form, each running through `run`. */
  runtimeTools(offered: readonly ToolDeclaration[]): RuntimeTool[] {
    return offered.map((declaration) => ({
      name: declaration.name,
      description: declaration.description,
      parameters: argumentsSchema(declaration),
      execute: (args, callId) => this.run({ id: callId, name: declaration.name, args }),
      rejects: (args) => {
        if (declaration.name !== TRANSFER_TOOL_NAME) return undefined;
        const transfer = resolveTransfer(this.agent, args[AGENT_NAME_PARAM]);
        return transfer.kind === "invalid" ? String(transfer.response.error) : undefined;
      },
    }));
  }

  /** Runs one call; a valid transfer answers with the structured transfer output. */
  async run(call: FunctionCall & { id: string }): Promise<Record<string, unknown>> {
    let outcome: CallOutcome;
    try {
      outcome = await runToolCall(this.ctx, this.agent, call, this.tools, this.callbacks);
    } catch (error) {
      this.failure ??= error;
      this.pausing.add(call.id);
      throw error;
    }
    // runToolCall already checked the name against this agent's targets: what is left is valid.
    const target = outcome.ctx.actions.transferToAgent;
    if (target && outcome.part?.functionResponse) {
      const output = transferOutput(target);
      outcome.part = { functionResponse: { ...outcome.part.functionResponse, response: output } };
    }
    this.outcomes.set(call.id, outcome);
    const confirming = Object.keys(outcome.ctx.actions.requestedToolConfirmations ?? {}).length > 0;
    if (outcome.part === undefined || confirming) this.pausing.add(call.id);
    return outcome.part?.functionResponse?.response ?? PENDING_OUTPUT;
  }

  /**
   * The outcome of a call for the events: Baton's when Baton ran it, else the runtime's own error answer
   * (an unknown tool, arguments the runtime rejected), which the loop has already shown its model.
   */
  outcomeOf(call: FunctionCall & { id: string }, step: RuntimeStep): CallOutcome {
    const known = this.outcomes.get(call.id);
    if (known) return known;
    const rejected = step.rejected?.find((r) => r.callId === call.id)?.error;
    const error = rejected ?? `The runtime did not run tool '${call.name}'.`;
    const part = { functionResponse: { id: call.id, name: call.name, response: { error } } };
    return { part, ctx: new ToolContext(this.ctx, call.id) };
  }

  /** True when a result transferred (read from its output), paused the turn, or failed. */
  endsLoop(results: readonly { callId: string; output: unknown }[]): boolean {
    return results.some(
      ({ callId, output }) => transferFromOutput(output) !== undefined || this.pausing.has(callId),
    );
  }
}
