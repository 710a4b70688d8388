import { Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { acceptDelivery } from "../webhooks/accept.js";
import type { HonoEnv } from "./types.js";
import { waitUntilOf } from "./wait-until.js";

/**
 * `POST /webhooks/:app/:hook`: a provider's delivery. Authenticated by its signature (not the API token),
 * answered as soon as the turn is queued: 202 `{ turnId, sessionId }`, 200 with the same body for a
 * duplicate, 204 when `toTurn` ignores it.
 */
export const webhooks = new Hono<HonoEnv>().post("/webhooks/:app/:hook", async (c) => {
  const { app: appName, hook: hookName } = c.req.param();
  const hook = c.var.deps.apps.get(appName)?.hooks.get(hookName);
  if (!hook) throw new BatonError("not_found", `No webhook "${hookName}" in app "${appName}".`);
  const deps = c.var.deps.webhooks;
  if (!deps)
    throw new BatonError(
      "internal",
      "Webhooks need the TURNS queue and the WEBHOOK_TURNS Durable Object bindings (see wrangler.toml).",
    );
  const body = new Uint8Array(await c.req.arrayBuffer());
  // The shard hears of the queue send after the answer (`enqueueTurn`), where a Worker can keep work alive.
  const afterAnswer = waitUntilOf(c);
  const outcome = await acceptDelivery(
    { appName, hook, body, headers: c.req.raw.headers },
    afterAnswer ? { ...deps, afterAnswer } : deps,
  );
  switch (outcome.kind) {
    case "ignored":
      return c.body(null, 204);
    case "challenge":
      return c.json({ challenge: outcome.challenge });
    default:
      return c.json(
        { turnId: outcome.turnId, sessionId: outcome.sessionId },
        outcome.kind === "accepted" ? 202 : 200,
      );
  }
});
