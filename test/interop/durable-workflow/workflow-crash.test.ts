import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { type DevServer, freePort, startDevServer } from "../support/dev-server.js";

/** This folder's Worker (wrangler.toml beside this file). */
const CONFIG = fileURLToPath(new URL("./wrangler.toml", import.meta.url));

/** Counts hits per path; `/charge` is held (never answered) while `hold` is set. */
function counterServer() {
  const state = { quote: 0, charge: 0, hold: true };
  const server: Server = createServer((req, res) => {
    if (req.url === "/quote") return void res.end(`#${++state.quote}`);
    if (req.url !== "/charge") return void res.writeHead(404).end();
    state.charge++;
    if (!state.hold) res.end(`charged #${state.charge}`);
  });
  const listening = new Promise<string>((resolve) =>
    // SAFETY: a server listening on a TCP port has an AddressInfo address.
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
const eventsOf = async (app: string, session: string): Promise<Event[]> =>
  (
    (await (await fetch(`${dev.origin}/apps/${app}/users/u/sessions/${session}`)).json()) as {
      events: Event[];
    }
  ).events;

/** Starts a turn, SIGKILLs the dev server while `charge` waits on the counter, and restarts it. */
async function killDuringCharge(app: string): Promise<string> {
  const session = `s-${crypto.randomUUID().slice(0, 8)}`;
  expect((await post(`/apps/${app}/users/u/sessions`, { sessionId: session })).status).toBe(200);
  const charges = counter.state.charge;
  const turn = post("/run", {
    appName: app,
    userId: "u",
    sessionId: session,
    newMessage: { role: "user", parts: [{ text: "buy" }] },
  }).catch(() => undefined);
  await until("the charge call", 30_000, async () => (counter.state.charge > charges ? true : undefined));
  await dev.kill();
  await turn;
  counter.state.hold = false;
  dev = await startDevServer(port, persist, vars, { config: CONFIG });
  return session;
}

beforeAll(async () => {
  vars = { COUNTER_URL: await counter.listening };
  port = await freePort();
  persist = mkdtempSync(join(tmpdir(), "baton-durable-workflow-"));
  dev = await startDevServer(port, persist, vars, { config: CONFIG });
}, 120_000);

afterAll(async () => {
  await dev?.kill();
  await counter.close();
  rmSync(persist, { recursive: true, force: true });
}, 60_000);

describe("a workflow cut off by a SIGKILL under wrangler dev resumes node by node (decision 049)", () => {
  it("does not run a node that is not idempotent again: the resumed turn ends with NODE_INTERRUPTED at it", async () => {
    counter.state.hold = true;
    const { quote, charge } = counter.state;
    const session = await killDuringCharge("once");
    const failed = await until("the resumed turn's error", 60_000, async () =>
      (await eventsOf("once", session)).find((e) => e.errorCode === "NODE_INTERRUPTED"),
    );
    expect(failed).toMatchObject({ author: "charge", nodeInfo: { path: "shop/charge" } });
    expect(counter.state.charge - charge).toBe(1);
    expect(counter.state.quote - quote).toBe(1);
    const events = await eventsOf("once", session);
    expect(events.some((e) => e.author === "receipt")).toBe(false);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
  }, 240_000);

  it("runs an idempotent node again and goes on to the end, the finished node handed back from the log", async () => {
    counter.state.hold = true;
    const { quote, charge } = counter.state;
    const session = await killDuringCharge("again");
    const receipt = await until("the receipt", 60_000, async () =>
      (await eventsOf("again", session)).find((e) => e.author === "receipt" && e.output !== undefined),
    );
    expect(String(receipt.output)).toMatch(/^receipt: quote #\d+, charged #\d+$/);
    expect(counter.state.quote - quote).toBe(1);
    expect(counter.state.charge - charge).toBe(2);
    const outputs = (await eventsOf("again", session))
      .filter((e) => e.output !== undefined)
      .map((e) => e.author);
    expect(outputs).toEqual(["quote", "charge", "receipt"]);
  }, 240_000);
});
