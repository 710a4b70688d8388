/**
 * A Worker whose only models are `openai-compatible:` ones, as a user would write it: the bundle bench
 * measures it, and a test checks that it bundles no other provider's SDK.
 */
import { defineApp, LlmAgent } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
import { openaiCompatible } from "@baton-agents/core/models/openai-compatible";

export * from "@baton-agents/core/cloudflare"; // the Durable Object classes wrangler must see

const root = new LlmAgent({ name: "root", model: "openai-compatible:llama3.2", instruction: "Be brief." });

export default createWorker({
  apps: [defineApp({ name: "compatible", rootAgent: root })],
  models: [openaiCompatible()],
});
