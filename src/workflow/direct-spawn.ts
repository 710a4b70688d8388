import { node as buildNode } from "./build-node.js";
import type { NodeResult, RunNodeOptions } from "./node.js";
import type { NodeContext } from "./node-context.js";
import type { NodeLike } from "./node-like.js";
import { runChild } from "./node-runner.js";

/** `ctx.runNode` outside a workflow's scheduler: the child runs at once under the caller. */
export function directSpawn(
  parent: NodeContext,
  nodeLike: NodeLike,
  input: unknown,
  options: RunNodeOptions,
): Promise<NodeResult> {
  return runChild({
    parent,
    node: buildNode(nodeLike),
    input,
    name: options.name,
    runId: options.runId,
    useAsOutput: options.useAsOutput,
    useSubBranch: options.useSubBranch,
  });
}
