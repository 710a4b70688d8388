// The app: a concierge that hands billing questions to a billing agent with two tools. Nothing here needs
// a Worker, so `npm run eval` runs it in Node and src/worker.ts serves it.
import { defineApp, functionTool, LlmAgent, type ModelProvider } from "@baton-agents/core";
// A real model's provider, in an entry of its own (install its peer too):
// import { openai } from "@baton-agents/core/models/openai"; // npm install @ai-sdk/openai
// A namespace import: zod's `z` value would bring all of zod's locales into the Worker.
import * as z from "zod";

// `demo:` is Baton's built-in offline model: it routes and calls tools by matching the user's words
// against agent descriptions and tool declarations, so everything here runs without a key.
const MODEL = "demo:assistant";
// A real model: this line instead, `openai()` in `models` below, and OPENAI_API_KEY in .dev.vars
// (`npm run dev`, `npm run eval`) or `npx wrangler secret put OPENAI_API_KEY` (deployed).
// const MODEL = "openai:gpt-4.1-mini";

/** The providers `provider:model` strings resolve through (`demo:` is built in); with the real MODEL: [openai()]. */
export const models: ModelProvider[] = [];

const lookupInvoice = functionTool({
  name: "lookup_invoice",
  description: "Finds an invoice by its number",
  parameters: z.object({ number: z.string().describe("The invoice number") }),
  execute: async ({ number }) => ({ number, status: "paid", amount: "42.00 EUR" }),
});

// Saves a file (an ADK artifact): the dev UI's Artifacts tab lists it, `GET …/artifacts` serves it.
const downloadInvoice = functionTool({
  name: "download_invoice",
  description: "Saves an invoice as a text file to download",
  parameters: z.object({ number: z.string().describe("The invoice number") }),
  execute: async ({ number }, ctx) => {
    const filename = `invoice-${number.replace(/[^A-Za-z0-9-]+/g, "-")}.txt`;
    const text = `Invoice ${number}\nStatus: paid\nAmount: 42.00 EUR\n`;
    const data = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
    const version = await ctx.saveArtifact(filename, { inlineData: { mimeType: "text/plain", data } });
    return { saved: filename, version };
  },
});

const billing = new LlmAgent({
  name: "billing",
  description: "Answers questions about invoices, payments and refunds",
  model: MODEL,
  instruction: "You handle billing. Look invoices up before you answer.",
  tools: [lookupInvoice, downloadInvoice],
});

const concierge = new LlmAgent({
  name: "concierge",
  description: "Greets the user and routes them",
  model: MODEL,
  instruction: "Greet the user and hand them to the agent that can help.",
  subAgents: [billing],
});

export const app = defineApp({ name: "baton-app-name", rootAgent: concierge });
