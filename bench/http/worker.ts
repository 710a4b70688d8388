/**
 * The HTTP benchmark's Worker: Baton's API for two one-agent apps (history bounded to 50 events, and
 * unbounded), a hand-written baseline turn at `POST /baseline/run` (streamed at `/baseline/run_sse`), and `POST /bench/seed` to grow a session.
 */
import { LlmAgent } from "../../src/agents/llm-agent.js";
import { createWorker } from "../../src/handlers/create-worker.js";
import { openaiCompatible } from "../../src/models/openai-compatible-provider.js";
import { defineApp } from "../../src/runner/app.js";
import { bareModels } from "./bare-model.js";
import { baselineSseTurn, baselineTurn } from "./baseline.js";
import {
  AGENT_NAME,
  BARE_APP,
  type BenchEnv,
  BOUNDED_APP,
  HISTORY_BOUND,
  UNBOUNDED_APP,
} from "./bench-env.js";
import { seedSession } from "./seed.js";

export { AppObject, UserObject } from "../../src/cloudflare.js";
export { SeedableSessionObject as SessionObject } from "./seed.js";

const agent = (model = "openai-compatible:bench") => new LlmAgent({ name: AGENT_NAME, model });

const baton = createWorker({
  apps: [
    defineApp({ name: BOUNDED_APP, rootAgent: agent(), maxHistoryEvents: HISTORY_BOUND }),
    defineApp({ name: UNBOUNDED_APP, rootAgent: agent() }),
    defineApp({ name: BARE_APP, rootAgent: agent("bare:bench"), maxHistoryEvents: HISTORY_BOUND }),
  ],
  models: [openaiCompatible(), bareModels()],
});

export default {
  async fetch(request, env, ctx) {
    if (request.method === "POST") {
      const { pathname } = new URL(request.url);
      if (pathname === "/baseline/run") return baselineTurn(request, env);
      if (pathname === "/baseline/run_sse") return baselineSseTurn(request, env);
      if (pathname === "/bench/seed") return seedSession(request, env);
    }
    return baton.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
