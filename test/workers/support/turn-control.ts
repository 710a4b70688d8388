import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { SessionKey } from "../../../src/core/session.js";
import { createDemoModel } from "../../../src/demo/model.js";
import { sessionObjectName } from "../../../src/session/do-store.js";

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
  let markStarted = (): void => undefined;
  let release = (): void => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model = {
    ...demo,
    doGenerate: async (options: Parameters<typeof demo.doGenerate>[0]) => {
      markStarted();
      await released;
      return demo.doGenerate(options);
    },
  };
  return { model, started, release: () => release() };
}

export { gatedModel } from "../../unit/support/gated-model.js";
