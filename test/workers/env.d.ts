import type { WebhookEnv } from "../../src/handlers/create-worker.js";
import type { SessionStoreEnv } from "../../src/session/do-store.js";

// The bindings wrangler.toml declares, as `env` from "cloudflare:workers" sees them in workerd tests.
declare global {
  namespace Cloudflare {
    interface Env extends SessionStoreEnv, WebhookEnv {
      /** Agent cards of remote A2A agents (wrangler `[[kv_namespaces]]`). */
      AGENT_CARDS: KVNamespace;
      /** ADK artifacts (wrangler `[[r2_buckets]]`). */
      ARTIFACTS: R2Bucket;
      /** The R2 eval store's contract tests (vitest.config.ts `r2Buckets`). */
      EVALS_TEST: R2Bucket;
    }
  }
}
