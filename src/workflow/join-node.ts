import type { SharedScope } from "../core/state.js";
import { BaseNode, type BaseNodeConfig } from "./base-node.js";
import type { NodeContext } from "./node-context.js";

/**
 * A fan-in barrier (ADK 2.x `JoinNode`): the workflow runs it once all its predecessors finished, with their
 * outputs by node name as its input, which it passes on as its output.
 * @example
 * const merge = new JoinNode({ name: "merge" });
 * new Workflow({ name: "w", edges: [["START", [a, b]], [a, merge], [b, merge], [merge, report]] });
 */
export class JoinNode extends BaseNode {
  readonly kind = "join";

  constructor(config: BaseNodeConfig) {
    super({ idempotent: true, ...config });
  }

  override get requiresAllPredecessors(): boolean {
    return true;
  }

  override sharedScopes(): readonly SharedScope[] {
    return [];
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown> {
    yield ctx.newEvent({ output: input });
  }
}
