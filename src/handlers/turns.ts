import { Hono } from "hono";
import { BatonError } from "../core/errors.js";
import { publicTurn } from "../webhooks/turn-record.js";
import { assertService, callerOf } from "./caller.js";
import type { HonoEnv } from "./types.js";

/** `GET /turns/:turnId`: a webhook turn's status (`queued`, `running`, `done`, `failed`). Needs a service token. */
export const turns = new Hono<HonoEnv>().get("/turns/:turnId", async (c) => {
  assertService(callerOf(c), "Reading a webhook turn");
  const { turnId } = c.req.param();
  const record = await c.var.deps.webhooks?.ledger.turn(turnId)?.get();
  if (!record) throw new BatonError("not_found", `Turn not found: ${turnId}`);
  return c.json(publicTurn(record));
});
