import { helloApp } from "./apps.js";
import { fakeModelServer } from "./fake-model.js";
import { callWorker, freshIds, noSleep, sessionsOf } from "./http.js";

/**
 * A fresh app on the fake server's `hello-model`, served by `createWorker` over the real Durable Objects,
 * with fresh app, user and session ids. `vars` are added to (or, when `undefined`, cleared from) the env.
 */
export function helloWorker(vars: Record<string, string | undefined> = {}) {
  const fake = fakeModelServer();
  const ids = freshIds("hello");
  const call = callWorker(
    { apps: [helloApp(ids.app)], services: { sleep: noSleep } },
    { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl(), ...vars },
  );
  return { ...ids, fake, call, sessions: sessionsOf(call, ids.app, ids.user) };
}
