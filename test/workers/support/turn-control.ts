import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import * as z from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { userText } from "../../../src/core/content.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import type { SessionKey } from "../../../src/core/session.js";
import { createDemoModel } from "../../../src/demo-model/model.js";
import type { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { sessionObjectName } from "../../../src/storage/object-names.js";
import { signal } from "../../support/signal.js";

/** The session's Durable Object, as the store addresses it. */
export const sessionStub = (key: SessionKey) => env.SESSIONS.getByName(sessionObjectName(key));

/**
 * Time passing for a lease: its expiry moves back by `ms` inside the session's object, behind the object's
 * cache, which is then dropped so the object reads the row again.
 */
export async function elapseLease(key: SessionKey, ms: number): Promise<void> {
  await runInDurableObject(sessionStub(key), (instance, state) => {
    state.storage.sql.exec("UPDATE session SET lease_expires_at = lease_expires_at - ? WHERE id = 1", ms);
    // SAFETY: `dropCache` is the object's protected hook for writes made behind its back, as this one is.
    (instance as unknown as { dropCache(): void }).dropCache();
  });
}

/**
 * A new lifetime of the session's object as its code sees it: nothing of the session left in memory, so the
 * next call reads, and checks with zod, the session from storage again. (`ctx.abort()` restarts the object
 * too, but workerd reports each abort as an uncaught exception, with a stack, in the test output.)
 */
export async function newLifetime(key: SessionKey): Promise<void> {
  await runInDurableObject(sessionStub(key), (instance) => {
    // SAFETY: `dropCache` is the object's protected hook for forgetting what it holds in memory.
    (instance as unknown as { dropCache(): void }).dropCache();
  });
}

/** A demo model whose answers wait for `release()`; `started` resolves once a call is waiting. */
export function heldModel() {
  const demo = createDemoModel("held");
  const started = signal();
  const released = signal();
  const model = {
    ...demo,
    doGenerate: async (options: Parameters<typeof demo.doGenerate>[0]) => {
      started.resolve();
      await released.promise;
      return demo.doGenerate(options);
    },
  };
  return {
    model,
    get started() {
      return started.promise;
    },
    release: () => released.resolve(),
  };
}

export { gatedModel } from "../../unit/support/gated-model.js";

/** Two tools that count their calls: `pay` (not idempotent) and `lookup` (idempotent). */
export function payAndLookup() {
  const calls = { pay: 0, lookup: 0 };
  const pay = functionTool({
    name: "pay",
    description: "Charges the card",
    parameters: z.object({}),
    execute: () => ({ paid: ++calls.pay }),
  });
  const lookup = functionTool({
    name: "lookup",
    description: "Reads the balance",
    parameters: z.object({}),
    idempotent: true,
    execute: () => ({ balance: 10, reads: ++calls.lookup }),
  });
  return { calls, tools: [pay, lookup] };
}

const eventEnv = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => Date.now() } };

/**
 * A turn of `invocationId` that stored its user event and its model's calls of `pay` (id `c-pay`) and
 * `lookup` (`c-lookup`), then died before either answered: no response, no `endTurn`, and the object
 * restarted (its lease still held until it lapses). Returns the two stored events.
 */
export async function crashMidTools(
  store: DurableObjectSessionStore,
  key: SessionKey,
  invocationId: string,
): Promise<{ userEvent: Event; callEvent: Event }> {
  const userEvent = createEvent({ invocationId, author: "user", content: userText("pay it") }, eventEnv);
  const { lease } = await store.beginTurn(key, userEvent);
  const parts = [
    { functionCall: { id: "c-pay", name: "pay", args: {} } },
    { functionCall: { id: "c-lookup", name: "lookup", args: {} } },
  ];
  const callEvent = createEvent(
    { invocationId, author: "root", content: { role: "model", parts } },
    eventEnv,
  );
  await store.appendEvent(key, callEvent, { lease });
  await newLifetime(key);
  return { userEvent, callEvent };
}
