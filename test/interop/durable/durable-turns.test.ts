import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { type DevServer, freePort, startDevServer } from "../support/dev-server.js";

/** A counter the `charge` tool calls: it counts each hit, and holds the answer while `hold` is set. */
function counterServer() {
  const state = { hits: 0, hold: true };
  const server: Server = createServer((req, res) => {
    if (req.url !== "/hit") return void res.writeHead(404).end();
    state.hits++;
    if (!state.hold) res.end(`hit ${state.hits}`);
    // Held: never answered; the connection dies with the killed dev server.
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  return { state, listening, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const until = async <T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const counter = counterServer();
let dev: DevServer;
let port = 0;
let persist = "";
let vars: Record<string, string> = {};

const post = (path: string, body: unknown) =>
  fetch(`${dev.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const run = (app: string, session: string, text: string, path = "/run") =>
  post(path, {
    appName: app,
    userId: "u",
    sessionId: session,
    newMessage: { role: "user", parts: [{ text }] },
  });
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
const textOf = (e: Event) => e.content?.parts?.[0]?.text;
/** An SSE frame's id and its `data:` line's event. */
const parsed = (frame: string) => ({
  id: /\nid: (.+)/.exec(frame)?.[1],
  event: JSON.parse(frame.split("\n")[0]?.slice("data: ".length) ?? "") as Event,
});

beforeAll(async () => {
  vars = { COUNTER_URL: await counter.listening };
  port = await freePort();
  persist = mkdtempSync(join(tmpdir(), "baton-durable-"));
  dev = await startDevServer(port, persist, vars);
}, 120_000);

afterAll(async () => {
  await dev?.kill();
  await counter.close();
  rmSync(persist, { recursive: true, force: true });
}, 60_000);

describe("durable turns under wrangler dev", () => {
  it("finishes by itself a turn whose dev server was SIGKILLed while its tool ran, the tool called exactly once", async () => {
    const session = await newSession("durable");
    const killed = run("durable", session, "pay").catch(() => undefined);
    await until("the tool's first call", 30_000, async () => (counter.state.hits > 0 ? true : undefined));
    await dev.kill();
    await killed;

    const restarted = Date.now();
    dev = await startDevServer(port, persist, vars);
    const done = await until("the resumed turn's answer", 60_000, async () =>
      (await eventsOf("durable", session)).find((e) => textOf(e) === "charge answered"),
    );
    const finishedInS = (Date.now() - restarted) / 1000;
    console.log(`resumed turn finished ${finishedInS.toFixed(1)} s after the restart`);
    expect(counter.state.hits).toBe(1);
    const events = await eventsOf("durable", session);
    expect(events.filter((e) => e.author === "user")).toHaveLength(1);
    expect(events.every((e) => e.invocationId === done.invocationId)).toBe(true);
    const responses = events.flatMap((e) =>
      (e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
    );
    expect(responses).toHaveLength(1);
    expect(String(responses[0]?.response?.error)).toContain("was interrupted");
    expect(finishedInS).toBeLessThan(30);
  }, 180_000);

  it("keeps the enqueue line through a SIGKILL: the message that waited runs after the restart, once, after the turn it waited for", async () => {
    const session = await newSession("queued");
    const hits = counter.state.hits;
    const paying = run("queued", session, "pay").catch(() => undefined);
    await until("the tool's call", 30_000, async () => (counter.state.hits > hits ? true : undefined));
    const waiting = run("queued", session, "two").catch(() => undefined);
    // The second message is in the session's line once its request reached the object.
    await new Promise((r) => setTimeout(r, 500));
    await dev.kill();
    await Promise.all([paying, waiting]);

    const restarted = Date.now();
    dev = await startDevServer(port, persist, vars);
    await until("the waiting message's answer", 90_000, async () =>
      (await eventsOf("queued", session)).find((e) => textOf(e) === "echo: two"),
    );
    console.log(
      `the waiting message was answered ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart`,
    );
    const said = (await eventsOf("queued", session))
      .filter((e) => e.content?.parts?.some((p) => p.text !== undefined))
      .map((e) => `${e.author}: ${textOf(e)}`);
    expect(said).toEqual(["user: pay", "root: charge answered", "user: two", "root: echo: two"]);
    expect(counter.state.hits).toBe(hits + 1);
  }, 180_000);

  it("cancels a turn during a slow model call and frees the session in under a second", async () => {
    const session = await newSession("durable");
    const slow = run("durable", session, "slow one");
    await until("the slow turn to begin", 10_000, async () =>
      (await eventsOf("durable", session)).length > 0 ? true : undefined,
    );
    const started = performance.now();
    const canceled = await post(`/apps/durable/users/u/sessions/${session}/cancel`, {});
    const cancelMs = performance.now() - started;
    console.log(`cancel answered in ${cancelMs.toFixed(0)} ms`);
    expect(await canceled.json()).toMatchObject({ canceled: true, event: { errorCode: "TURN_CANCELED" } });
    expect(cancelMs).toBeLessThan(1000);
    const next = await run("durable", session, "next");
    expect(next.status).toBe(200);
    expect(((await (await slow).json()) as Event[]).map((e) => e.errorCode)).toEqual(["TURN_CANCELED"]);
  }, 60_000);

  it("enqueue runs three quick messages one after another, in order", async () => {
    const session = await newSession("queued");
    const first = run("queued", session, "wait 800 one");
    await new Promise((r) => setTimeout(r, 150));
    const second = run("queued", session, "two");
    await new Promise((r) => setTimeout(r, 150));
    const third = run("queued", session, "three");
    for (const turn of [first, second, third]) expect((await turn).status).toBe(200);
    const said = (await eventsOf("queued", session)).map((e) => `${e.author}: ${textOf(e)}`);
    expect(said).toEqual([
      "user: wait 800 one",
      "root: echo: wait 800 one",
      "user: two",
      "root: echo: two",
      "user: three",
      "root: echo: three",
    ]);
  }, 60_000);

  it("interrupt stops the running turn and answers the newest message", async () => {
    const session = await newSession("interrupting");
    const old = run("interrupting", session, "slow old");
    await until("the old turn to begin", 10_000, async () =>
      (await eventsOf("interrupting", session)).length > 0 ? true : undefined,
    );
    const answer = (await (await run("interrupting", session, "new")).json()) as Event[];
    expect(answer.map(textOf)).toEqual(["echo: new"]);
    expect(((await (await old).json()) as Event[]).map((e) => e.errorCode)).toEqual(["TURN_CANCELED"]);
  }, 60_000);

  it("gives a reconnect with Last-Event-ID exactly the frames it missed", async () => {
    counter.state.hold = false;
    const session = await newSession("durable");
    const body = await (await run("durable", session, "pay", "/run_sse")).text();
    const frames = body.split("\n\n").filter((f) => f.trim() !== "");
    const ids = frames.map((f) => /\nid: (.+)/.exec(f)?.[1]);
    expect(frames).toHaveLength(3);
    const invocationId = (JSON.parse(frames[0]?.split("\n")[0]?.slice(6) ?? "") as Event).invocationId;
    const again = await fetch(
      `${dev.origin}/apps/durable/users/u/sessions/${session}/invocations/${invocationId}/stream`,
      { headers: { "Last-Event-ID": ids[0] ?? "" } },
    );
    const missed = (await again.text()).split("\n\n").filter((f) => f.trim() !== "");
    // The same frames: the same ids and events (the stored copy's keys may come in another order).
    expect(missed.map(parsed)).toEqual(frames.slice(1).map(parsed));
    expect(missed.map((f) => /\nid: (.+)/.exec(f)?.[1])).toEqual(ids.slice(1));
  }, 60_000);
});
