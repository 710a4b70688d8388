import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// The tests run inside workerd with wrangler.toml's bindings, simulated locally (Durable Objects, queues, KV).
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      // As `npm run dev`: no bearer tokens. A deployed Worker sets API_TOKENS instead.
      miniflare: { bindings: { ALLOW_UNAUTHENTICATED: "true" } },
    }),
  ],
  // The first request imports the whole Worker inside workerd: seconds on a cold start, a minute or more
  // on a busy machine.
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000 },
});
