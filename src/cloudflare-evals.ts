/**
 * `@baton-agents/core/cloudflare/evals`: ADK's eval routes for `createWorker` (`evals: evalRoutes()`), the
 * dev UI's Evals tab, kept out of the main entry so Workers without evaluations bundle none of it. Eval sets
 * and results are kept in the R2 bucket bound as `EVALS` (or `ARTIFACTS`), else in the app's Durable
 * Object. docs/evals.md, decision 034.
 */
import type { Hono } from "hono";
import { evals } from "./handlers/evals.js";
import type { HonoEnv } from "./handlers/types.js";

export {
  DurableObjectEvalStore,
  type EvalStoreEnv,
  evalStoreOf,
  R2EvalStore,
} from "./evals/cloudflare-eval-stores.js";

/**
 * ADK's eval routes, at `/apps/:app/…` and under `/dev` as the dev UI calls them; service tokens only.
 * @example
 * export default createWorker({ apps: [demoApp], evals: evalRoutes() });
 */
export const evalRoutes = (): Hono<HonoEnv> => evals;
