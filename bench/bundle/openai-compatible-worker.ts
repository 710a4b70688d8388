/**
 * A Worker whose only models are `openai-compatible:` ones, as a user would write it: the bundle bench
 * measures it, and a test checks that it bundles no other provider's SDK.
 */
import { defineApp, LlmAgent } from "baton";
import { createWorker } from "baton/cloudflare";
import { openaiCompatible } from "baton/models/openai-compatible";

export * from "baton/cloudflare"; // the Durable Object classes wrangler must see

const root = new LlmAgent({ name: "root", model: "openai-compatible:llama3.2", instruction: "Be brief." });

export default createWorker({
  apps: [defineApp({ name: "compatible", rootAgent: root })],
  models: [openaiCompatible()],
});
