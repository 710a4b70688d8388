// The Worker: the app of src/app.ts over ADK's HTTP API, with the dev UI's Artifacts and Evals tabs.
import { createWorker } from "@baton-agents/core/cloudflare";
import { r2Artifacts } from "@baton-agents/core/cloudflare/artifacts";
import { evalRoutes } from "@baton-agents/core/cloudflare/evals";
// Opt-ins, each in an entry of its own so a Worker without it bundles none of it (install its peers too):
// import { inboundEmail } from "@baton-agents/core/cloudflare/email"; // npm install postal-mime mimetext
// import { mcpServer } from "@baton-agents/core/mcp"; // npm install @modelcontextprotocol/sdk @cfworker/json-schema
import { app, models } from "./app.js";

export * from "@baton-agents/core/cloudflare"; // the Durable Object classes wrangler.toml names

export default createWorker({
  apps: [app],
  // Only the providers listed in src/app.ts are bundled (demo: is built in).
  models,
  // ADK's artifacts in the R2 bucket ARTIFACTS (the Artifacts tab, tools' ctx.saveArtifact).
  artifacts: r2Artifacts(),
  // ADK's eval routes (the Evals tab); sets and results are kept in ARTIFACTS under evals/.
  evals: evalRoutes(),
  // The queues wrangler.toml names after this project (a queue has one consumer Worker).
  deadLetterQueue: "baton-app-name-turns-dlq",
  a2a: { pushQueue: "baton-app-name-a2a-push" },
  // email: inboundEmail, // turns from mail (an app's `email` route); uncomment [[send_email]] in wrangler.toml
  // mcp: mcpServer(), // every app is also an MCP server at /mcp/<app>
});
