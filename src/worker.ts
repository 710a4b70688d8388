// The demo app's Worker entry (wrangler `main`): `npm run dev` serves it on 127.0.0.1:8787.
import { adkReplayPlugin } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
import { r2Artifacts } from "@baton-agents/core/cloudflare/artifacts";
import { inboundEmail } from "@baton-agents/core/cloudflare/email";
import { evalRoutes } from "@baton-agents/core/cloudflare/evals";
import { mcpServer } from "@baton-agents/core/mcp";
import { otlpTraces } from "@baton-agents/core/otel";
import { demoApp } from "./demo/app.js";
import { workflowApp } from "./demo/triage-workflow.js";

export * from "@baton-agents/core/cloudflare"; // the Durable Object classes wrangler must see

// Every app is also an MCP server at /mcp/<app> (docs/mcp.md); the dev UI's Evals
// tab works (docs/evals.md); `ADK_REPLAY=true` serves ADK's replay mode (docs/conformance.md).
export default createWorker({
  apps: [demoApp, workflowApp],
  email: inboundEmail,
  mcp: mcpServer(),
  evals: evalRoutes(),
  artifacts: r2Artifacts(),
  replay: adkReplayPlugin,
  traces: otlpTraces(), // each turn's spans to the OTLP collector OTEL_EXPORTER_OTLP_ENDPOINT names, if set
});
