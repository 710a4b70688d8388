import { isWorkflowNode } from "../workflow/node.js";
import type { Workflow } from "../workflow/workflow.js";

/**
 * The workflow an agent is, if it is one. Told by its shape, not its class, and drawn by its own methods:
 * the dev routes are in every Worker, and one without workflows must not bundle their runtime (decision 049).
 */
export const asWorkflow = (value: unknown): Workflow | undefined =>
  // SAFETY: a workflow node of kind "workflow" is a `Workflow`, the one class that declares that kind.
  isWorkflowNode(value) && value.kind === "workflow" ? (value as Workflow) : undefined;
