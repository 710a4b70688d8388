import * as z from "zod";
import type { LlmRequest } from "../core/llm.js";
import { adkParameters } from "./adk-parameters.js";
import type { FunctionTool } from "./function-tool.js";
import { appendInstructions } from "./request-tool.js";

/** The tool a task-mode agent ends its task with (ADK `FINISH_TASK_TOOL_NAME`). */
export const FINISH_TASK = "finish_task";
/** What a successful `finish_task` call answers (ADK `FINISH_TASK_SUCCESS_RESULT`). */
export const FINISH_TASK_DONE = "Task completed.";

const NUDGE =
  "Do NOT call `finish_task` prematurely. Use your available tools to fully complete every aspect of the " +
  "task first. If the task is unclear, ask the user for clarification before proceeding. Once the task is " +
  "fully complete, call `finish_task` by itself with no accompanying text output.";

const DEFAULT_OUTPUT = z.object({
  result: z.string().describe("A brief summary of what the agent accomplished."),
});

/** `finish_task` as one agent declares it, and how its arguments become the task's output. */
export interface FinishTaskTool extends FunctionTool {
  /** The task's output from the call's arguments (`result` unwrapped when the schema is not an object). */
  outputOf(args: Record<string, unknown>): unknown;
}

/**
 * ADK's `FinishTaskTool`: a task-mode agent calls it to end its task, with its output (matching the agent's
 * `outputSchema`, or `{result}` by default) as the arguments. A call missing a required field answers ADK's
 * error so the model can try again; a good one answers "Task completed.".
 */
export function finishTaskTool(outputSchema?: z.ZodType): FinishTaskTool {
  const isObject = outputSchema === undefined || outputSchema instanceof z.ZodObject;
  const wrapped = isObject ? (outputSchema ?? DEFAULT_OUTPUT) : z.object({ result: outputSchema });
  const parameters = adkParameters(z.toJSONSchema(wrapped, { target: "draft-7", io: "input" }));
  const description =
    "Signal that this agent has completed its delegated task. Call this when you have finished your " +
    `delegated task.${outputSchema ? " Pass the required output data in the parameters." : ""}`;
  const fields: [string, z.ZodType][] = Object.entries(wrapped.shape);
  const required = fields.filter(([, field]) => !field.safeParse(undefined).success).map(([key]) => key);
  return {
    name: FINISH_TASK,
    description,
    isLongRunning: false,
    idempotent: true,
    stateScopes: [],
    declaration: () => ({ name: FINISH_TASK, description, ...(parameters ? { parameters } : {}) }),
    processRequest(request: LlmRequest) {
      appendInstructions(request, [NUDGE]);
    },
    async run(args) {
      const missing = required.filter((key) => args[key] === undefined || args[key] === null);
      if (missing.length > 0)
        return {
          ok: true,
          value: {
            error: `Invoking \`${FINISH_TASK}()\` failed due to missing required parameters: ${missing.join(", ")}. You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters with correct types.`,
          },
        };
      return { ok: true, value: FINISH_TASK_DONE };
    },
    outputOf: (args) => (isObject ? args : args.result),
  };
}
