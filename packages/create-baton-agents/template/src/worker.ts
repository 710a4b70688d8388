// The Worker: one app whose concierge hands billing questions to a billing agent with a tool.
import { defineApp, functionTool, LlmAgent } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
// Opt-ins, each in an entry of its own so a Worker without it bundles none of it (install its peers too):
// import { inboundEmail } from "@baton-agents/core/cloudflare/email"; // npm install postal-mime mimetext
// import { mcpServer } from "@baton-agents/core/mcp"; // npm install @modelcontextprotocol/sdk @cfworker/json-schema
// import { openai } from "@baton-agents/core/models/openai"; // npm install @ai-sdk/openai; the real MODEL below
// A namespace import: zod's `z` value would bring all of zod's locales into the Worker.
import * as z from "zod";

// `demo:` is Baton's built-in offline model: it routes and calls tools by matching the user's words
// against agent descriptions and tool declarations, so everything here runs without a key.
const MODEL = "demo:assistant";
// A real model: this line instead, `openai()` in `models` below, and OPENAI_API_KEY in .dev.vars
// (locally) or `npx wrangler secret put OPENAI_API_KEY` (deployed).
// const MODEL = "openai:gpt-4.1-mini";

const lookupInvoice = functionTool({
  name: "lookup_invoice",
  description: "Finds an invoice by its number",
  parameters: z.object({ number: z.string().describe("The invoice number") }),
  execute: async ({ number }) => ({ number, status: "paid", amount: "42.00 EUR" }),
});

const billing = new LlmAgent({
  name: "billing",
  description: "Answers questions about invoices, payments and refunds",
  model: MODEL,
  instruction: "You handle billing. Look invoices up before you answer.",
  tools: [lookupInvoice],
});

const concierge = new LlmAgent({
  name: "concierge",
  description: "Greets the user and routes them",
  model: MODEL,
  instruction: "Greet the user and hand them to the agent that can help.",
  subAgents: [billing],
});

export const app = defineApp({ name: "baton-app-name", rootAgent: concierge });

export * from "@baton-agents/core/cloudflare"; // the Durable Object classes wrangler.toml names

export default createWorker({
  apps: [app],
  // Only the providers listed here are bundled (demo: is built in); with the real MODEL: [openai()].
  models: [],
  // email: inboundEmail, // turns from mail (an app's `email` route); replies leave through SEND_EMAIL
  // mcp: mcpServer(), // every app is also an MCP server at /mcp/<app>
});
