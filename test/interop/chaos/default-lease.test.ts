import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { interruptedMessage } from "../../../src/core/open-calls.js";
import { until } from "../../support/signal.js";
import { type DevServer, freePort, startDevServer } from "../support/dev-server.js";
import { startCounter } from "./counter.js";
import { startFakeModel } from "./fake-model.js";

/**
 * Issue 42's two reports, under `wrangler dev` with the default lease (120 s): the dev server's process
 * group is SIGKILLed while a turn's tool (not idempotent) runs, and restarted on the same storage.
 */
const CONFIG = fileURLToPath(new URL("./wrangler.toml", import.meta.url));

let model: Awaited<ReturnType<typeof startFakeModel>>;
let counter: Awaited<ReturnType<typeof startCounter>>;
let dev: DevServer;
let port = 0;
let persist = "";
let vars: Record<string, string> = {};
const start = () =>
  startDevServer(port, persist, vars, {
    config: CONFIG,
    defines: { CHAOS_PEER_CARD: JSON.stringify("http://127.0.0.1:9/.well-known/agent-card.json") },
  });

beforeAll(async () => {
  model = await startFakeModel();
  counter = await startCounter();
  vars = { OPENAI_COMPATIBLE_BASE_URL: model.url, COUNTER_URL: counter.url, CHAOS_HOOK_SECRET: "unused" };
  port = await freePort();
  persist = mkdtempSync(join(tmpdir(), "baton-default-lease-"));
  dev = await start();
}, 120_000);

afterAll(async () => {
  await dev?.kill();
  await Promise.all([model?.close(), counter?.close()]);
  rmSync(persist, { recursive: true, force: true });
}, 60_000);

const post = (path: string, body: unknown) =>
  fetch(`${dev.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const run = (app: string, session: string, text: string) =>
  post("/run", {
    appName: app,
    userId: "u",
    sessionId: session,
    newMessage: { role: "user", parts: [{ text }] },
  });
// SAFETY: the dev server's session route answers the session as JSON, its events included.
const eventsOf = async (app: string, session: string): Promise<Event[]> =>
  (
    (await (await fetch(`${dev.origin}/apps/${app}/users/u/sessions/${session}`)).json()) as {
      events: Event[];
    }
  ).events;
const newSession = async (app: string) => {
  const id = `s-${crypto.randomUUID().slice(0, 8)}`;
  expect((await post(`/apps/${app}/users/u/sessions`, { sessionId: id })).status).toBe(200);
  return id;
};
const said = (events: Event[]) =>
  events.map((e) => {
    const part = e.content?.parts?.[0];
    const what = part?.text ?? (part?.functionCall ? "call" : part?.functionResponse ? "response" : "");
    return `${e.author}: ${what}`;
  });
const charges = (ref: string) => counter.hits.filter((h) => h.tool === "charge" && h.ref === ref).length;

describe("turns cut off by a SIGKILL, with the default lease", () => {
  it("resumes a turn that ran in its object seconds after the restart, never charging twice, and takes the next message", async () => {
    const session = await newSession("solo");
    const tag = `#d${crypto.randomUUID().slice(0, 6)}`;
    const cut = run("solo", session, `${tag} pay 600000`).catch(() => undefined);
    await until(async () => (charges(tag) > 0 ? true : undefined), 20);
    await dev.kill();
    await cut;
    dev = await start();
    const restarted = Date.now();
    // A client reads its session again: that call starts the object, which resumes the turn at once.
    const events = await until(async () => {
      const stored = await eventsOf("solo", session);
      return stored.some((e) => e.content?.parts?.[0]?.text === `answer ${tag}`) ? stored : undefined;
    }, 50);
    const seconds = (Date.now() - restarted) / 1000;
    console.log(`the cut-off turn was answered ${seconds.toFixed(1)} s after the restart`);
    expect(seconds).toBeLessThan(5);
    expect(charges(tag)).toBe(1);
    expect(said(events)).toEqual([
      `user: ${tag} pay 600000`,
      "root: call",
      "root: response",
      `root: answer ${tag}`,
    ]);
    expect(events[2]?.content?.parts?.[0]?.functionResponse?.response).toEqual({
      error: interruptedMessage("charge"),
    });
    expect((await run("solo", session, `${tag}-next`)).status).toBe(200);
  }, 120_000);

  it("keeps the order with enqueue: the cut-off turn resumes first, then the message that waited, each once", async () => {
    const session = await newSession("queued");
    const tag = `#q${crypto.randomUUID().slice(0, 6)}`;
    const paying = run("queued", session, `${tag} pay 600000`).catch(() => undefined);
    await until(async () => (charges(tag) > 0 ? true : undefined), 20);
    const waiting = run("queued", session, `${tag}-two`).catch(() => undefined);
    // The second message is in the session's line once its request reached the object.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await dev.kill();
    await Promise.all([paying, waiting]);
    dev = await start();
    const restarted = Date.now();
    const events = await until(async () => {
      const stored = await eventsOf("queued", session);
      return stored.some((e) => e.content?.parts?.[0]?.text === `answer ${tag}-two`) ? stored : undefined;
    }, 50);
    const seconds = (Date.now() - restarted) / 1000;
    console.log(`the message that waited was answered ${seconds.toFixed(1)} s after the restart`);
    expect(seconds).toBeLessThan(10);
    expect(said(events)).toEqual([
      `user: ${tag} pay 600000`,
      "root: call",
      "root: response",
      `root: answer ${tag}`,
      `user: ${tag}-two`,
      `root: answer ${tag}-two`,
    ]);
    expect(charges(tag)).toBe(1);
  }, 120_000);
});
