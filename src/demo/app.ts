import * as z from "zod";
import { functionTool } from "../agents/function-tool.js";
import { LlmAgent } from "../agents/llm-agent.js";
import { loadMemoryTool } from "../agents/memory-tools.js";
import { userText } from "../core/content.js";
import type { EmailResult, InboundEmail } from "../core/email.js";
import { defineApp } from "../runner/app.js";
import { verifiers } from "../webhooks/verifiers.js";
import { webhook } from "../webhooks/webhook.js";
import { exampleMcpTools } from "./example-mcp.js";

/** A deterministic stand-in for a weather API, so the demo runs offline. */
const forecastOf = (city: string) => {
  const seed = [...city].reduce((sum, ch) => sum + ch.charCodeAt(0), 0);
  return {
    city,
    forecast: ["sunny", "cloudy", "rainy", "windy"][seed % 4] ?? "sunny",
    highCelsius: 12 + (seed % 15),
  };
};

export const getForecast = functionTool({
  name: "get_forecast",
  description: "Gets the weather forecast for a city",
  parameters: z.object({ city: z.string().describe("The city to forecast") }),
  execute: ({ city }) => forecastOf(city),
  // It reads no state: the demo's turns then never call the app's or the user's Durable Object.
  stateScopes: [],
});

/** Saves the forecast as an SVG card, an ADK artifact: the dev UI's Artifacts tab shows it (docs/services.md). */
const saveReport = functionTool({
  name: "save_report",
  description: "Saves a weather report for a city as a file (an artifact) to view or download",
  parameters: z.object({ city: z.string().describe("The city of the report") }),
  execute: async ({ city }, ctx) => {
    const filename = `weather-${city.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.svg`;
    const version = await ctx.saveArtifact(filename, reportCard(forecastOf(city)), { city });
    return { saved: filename, version };
  },
  stateScopes: [],
});

const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[ch] ?? ch);

function reportCard({ city, forecast, highCelsius }: ReturnType<typeof forecastOf>) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120">
<rect width="320" height="120" rx="12" fill="#e8f0fe"/>
<text x="20" y="45" font-family="sans-serif" font-size="22" fill="#1a73e8">${escapeXml(city)}</text>
<text x="20" y="85" font-family="sans-serif" font-size="18" fill="#202124">${forecast}, high ${highCelsius} °C</text>
</svg>`;
  const bytes = new TextEncoder().encode(svg);
  return { inlineData: { mimeType: "image/svg+xml", data: btoa(String.fromCharCode(...bytes)) } };
}

const weather = new LlmAgent({
  name: "weather",
  description: "Answers questions about the weather, forecasts, temperature and rain in a city.",
  instruction: "You are the weather specialist. Use get_forecast for any city the user names.",
  model: "demo:weather",
  // With `MCP_EXAMPLE_URL` set, an MCP server's tools too (docs/mcp.md).
  tools: [getForecast, saveReport, exampleMcpTools],
  outputKey: "last_forecast",
});

const billing = new LlmAgent({
  name: "billing",
  description: "Handles billing: invoices, payments, refunds and charges.",
  instruction: "You are the billing specialist. Help with invoices, payments and refunds.",
  model: "demo:billing",
});

const concierge = new LlmAgent({
  name: "concierge",
  description: "Greets the user and routes each question to the right specialist.",
  instruction:
    "You are the concierge of Baton's demo. Route weather and billing questions to the specialists.",
  model: "demo:concierge",
  // ADK's load_memory: what the user said in sessions added to their memory (docs/services.md).
  tools: [loadMemoryTool],
  subAgents: [weather, billing],
});

/** The demo app: a concierge that routes to a weather specialist (with a tool) and a billing specialist. */
/**
 * A GitHub-style hook: a new comment on an issue starts a turn in that session; every other
 * delivery (other events, edits, deletions) is ignored with 204. `npm run dev` sets the secret to a
 * dev-only value; a deploy sets its own with `wrangler secret put GITHUB_WEBHOOK_SECRET`.
 */
const githubComments = webhook({
  name: "github",
  verify: verifiers.github({ secretName: "GITHUB_WEBHOOK_SECRET" }),
  toTurn: ({ payload, headers }) =>
    headers.get("x-github-event") === "issue_comment" && payload.action === "created"
      ? {
          userId: "github",
          sessionId: `issue-${payload.issue.number}`,
          newMessage: userText(payload.comment.body),
        }
      : null,
});

/**
 * A daily schedule (wrangler.toml `[triggers] crons`): at 09:00 UTC the concierge gets a weather question
 * in session `daily-digest`. Offline it answers with the demo model; `npm run dev` fires it on
 * `GET /__scheduled?cron=0+9+*+*+*`.
 */
const dailyDigest = {
  name: "daily-digest",
  cron: "0 9 * * *",
  userId: "schedules",
  sessionId: "daily-digest",
  message: "Good morning! What is the weather in Lisbon today?",
};

/**
 * Inbound email: mail to concierge@demo.baton.dev from a verified sender is a turn in its thread's session
 * (Baton's reserved user `baton:email:email`, decision 048), answered by email through the `SEND_EMAIL` binding.
 */
const mailbox = {
  address: "concierge@demo.baton.dev",
  toTurn: (email: InboundEmail) => ({ newMessage: `${email.subject}\n\n${email.text}`.trim() }),
  onResult: ({ text }: EmailResult) => (text ? { text } : null),
};

export const demoApp = defineApp({
  name: "demo",
  rootAgent: concierge,
  webhooks: [githubComments],
  schedules: [dailyDigest],
  email: mailbox,
});
