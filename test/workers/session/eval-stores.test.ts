import { env } from "cloudflare:workers";
import { DurableObjectEvalStore, R2EvalStore } from "../../../src/evals/cloudflare-eval-stores.js";
import { describeEvalStoreContract } from "../../contract/eval-store-contract.js";

describeEvalStoreContract("R2 (Miniflare's simulated bucket)", () => new R2EvalStore(env.EVALS_TEST));
describeEvalStoreContract("the app's Durable Object SQLite", () => new DurableObjectEvalStore(env.APPS));
