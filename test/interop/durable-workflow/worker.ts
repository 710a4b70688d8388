// The Worker the workflow crash test runs under `wrangler dev` (wrangler.toml beside it).
import { defineApp, type NodeContext, node, Workflow } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";

export { AppObject, SessionObject, TurnObject, UserObject } from "@baton-agents/core/cloudflare";

/** Calls the test's counter (which holds its answer while the test wants the node cut off mid-call). */
async function hit(ctx: NodeContext, path: string): Promise<string> {
  const url = ctx.invocation.services.env.COUNTER_URL;
  const res = await fetch(`${url}${path}`);
  return res.text();
}

/** quote → charge (the counter) → receipt; `charge` idempotent or not, as the app says. */
function shop(name: string, chargeIdempotent: boolean) {
  const quote = node(async (ctx: NodeContext) => `quote ${await hit(ctx, "/quote")}`, {
    name: "quote",
    idempotent: true,
  });
  const charge = node(async (ctx: NodeContext, q: string) => `${q}, ${await hit(ctx, "/charge")}`, {
    name: "charge",
    idempotent: chargeIdempotent,
  });
  const receipt = node((_ctx: NodeContext, charged: string) => `receipt: ${charged}`, { name: "receipt" });
  return defineApp({
    name,
    rootAgent: new Workflow({ name: "shop", edges: [["START", quote, charge, receipt]] }),
  });
}

export default createWorker({ apps: [shop("once", false), shop("again", true)] });
