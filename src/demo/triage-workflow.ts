import { LlmAgent } from "../agents/llm-agent.js";
import { defineApp } from "../runner/app.js";
import { node } from "../workflow/build-node.js";
import { DEFAULT_ROUTE } from "../workflow/graph.js";
import type { NodeContext } from "../workflow/node-context.js";
import { RequestInput } from "../workflow/request-input.js";
import { Workflow } from "../workflow/workflow.js";
import { getForecast } from "./app.js";

const WEATHER = /\b(weather|forecast|rain|sunny|temperature)\b/i;
const BILLING = /\b(invoice|bill|billing|refund|charge|payment)\b/i;

/** Routes the user's message by its words: the weather desk, the billing desk, or a question back. */
const classify = node(
  (ctx: NodeContext, text: string) => {
    const route = WEATHER.test(text) ? "weather" : BILLING.test(text) ? "billing" : "unsure";
    return ctx.newEvent({ output: text, actions: { route } });
  },
  { name: "classify", idempotent: true, stateScopes: [] },
);

const forecaster = new LlmAgent({
  name: "forecaster",
  description: "Gives the weather forecast for a city.",
  instruction: "Use get_forecast for the city the user names.",
  model: "demo:forecaster",
  tools: [getForecast],
});

const billingDesk = new LlmAgent({
  name: "billing_desk",
  description: "Answers billing questions: invoices, payments and refunds.",
  instruction: "Answer the billing question briefly.",
  model: "demo:billing_desk",
});

/** Neither desk matched: the workflow asks the user, and goes on with the answer (a human in the loop). */
const askUser = node(() => new RequestInput({ message: "Is this about the weather or about billing?" }), {
  name: "ask_user",
  idempotent: true,
  stateScopes: [],
});

const wrapUp = node(
  (_ctx: NodeContext, answer: unknown) =>
    `Done: ${typeof answer === "string" ? answer : JSON.stringify(answer)}`,
  {
    name: "wrap_up",
    idempotent: true,
    stateScopes: [],
  },
);

/**
 * The demo's ADK 2.x workflow (decision 049): a routing function, two agent nodes and a question for
 * the user, joined by one last step. ADK's dev UI draws it as a graph and lights up each event's node.
 */
export const triage = new Workflow({
  name: "triage",
  description: "Routes a message to the weather or billing desk, or asks which one.",
  edges: [
    ["START", classify, { weather: forecaster, billing: billingDesk, [DEFAULT_ROUTE]: askUser }],
    [forecaster, wrapUp],
    [billingDesk, wrapUp],
    [askUser, wrapUp],
  ],
});

export const workflowApp = defineApp({ name: "workflow", rootAgent: triage });
