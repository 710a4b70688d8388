import { describe, expect, inject, it } from "vitest";
import { r2Artifacts } from "../../../src/cloudflare-artifacts.js";
import { evalRoutes } from "../../../src/cloudflare-evals.js";
import type { Session } from "../../../src/core/session.js";
import { demoApp } from "../../../src/demo/app.js";
import { mcpServer } from "../../../src/mcp.js";
import { defineApp } from "../../../src/runner/app.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, TEST_TOKEN } from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";
import { seededRandom } from "./prng.js";
import { type FuzzRequest, fuzzRequest, type World } from "./requests.js";
import { digest, namesIn } from "./store-digest.js";

const REQUESTS = inject("fuzzRequests");
const SEED = inject("fuzzSeed");
const REPORT = inject("fuzzReport");
/** A request that takes longer than this is a hang: the run stops there and names it. */
const ANSWER_WITHIN_MS = 30_000;

/** `work`, or "hung" when it takes longer than `ms`. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The demo app under a name of its own, served with service tokens and end-user mode, two users seeded, with
 * every optional part on: evals, artifacts (R2) and MCP (its host, baton.test, is the Worker's own).
 */
async function setup() {
  const issuer = await testIssuer();
  const ids = freshIds("fuzz");
  const app = defineApp({ ...demoApp, name: ids.app });
  const call = callWorker(
    {
      apps: [app],
      services: { sleep: noSleep, fetch: issuer.fetch, log: () => undefined },
      evals: evalRoutes(),
      artifacts: r2Artifacts(),
      mcp: mcpServer(),
    },
    { ...issuer.vars, ALLOWED_HOSTS: "baton.test" },
  );
  const users = [`alice-${ids.id}`, `bob-${ids.id}`];
  const sessions = users.map((user) => `s-${user}`);
  const events: string[] = ["nope"];
  for (const [i, user] of users.entries()) {
    const session = sessions[i] ?? "";
    const base = `/apps/${ids.app}/users/${user}/sessions`;
    await expectJson(
      call(base, { method: "POST", json: { sessionId: session, state: { "user:seen": 1 } } }),
      200,
    );
    await expectJson(
      call("/run", { method: "POST", json: runBody(ids.app, user, session, "weather in Paris?") }),
      200,
    );
    const stored = await expectJson<Session>(call(`${base}/${session}`), 200);
    events.push(...stored.events.map((e) => e.id));
  }
  const [alice = "", bob = ""] = users;
  // An eval set with alice's session as its case, for the eval routes' templates.
  await expectJson(call(`/apps/${ids.app}/eval_sets/fuzz`, { method: "POST" }), 200);
  const addCase = { evalId: "c1", sessionId: sessions[0], userId: alice };
  await expectJson(
    call(`/apps/${ids.app}/eval_sets/fuzz/add_session`, { method: "POST", json: addCase }),
    200,
  );
  const now = issuer.now();
  const world: World = {
    app: ids.app,
    users: [...users, "carol", ""],
    sessions: [...sessions, "s-missing"],
    events,
    authorizations: [
      `Bearer ${TEST_TOKEN}`,
      `Bearer ${TEST_TOKEN}`,
      `Bearer ${await issuer.token({ sub: alice })}`,
      `Bearer ${await issuer.token({ sub: alice })}`,
      `Bearer ${await issuer.token({ sub: bob })}`,
      `Bearer ${await issuer.token({ sub: alice, exp: now - 10 })}`,
      `Bearer ${await issuer.token({ sub: bob }, { key: issuer.forgerKey })}`,
      "Bearer wrong-token",
      null,
    ],
  };
  const base = { app: ids.app, user: alice, session: sessions[0] ?? "" };
  return { call, world, base };
}

interface Outcome {
  index: number;
  request: FuzzRequest;
  status: number;
  problem: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with a response, if anything: a 5xx, or an error without a JSON `detail` (A2A: a JSON-RPC error). */
function problemOf(
  request: FuzzRequest,
  status: number,
  text: string,
  allow: string | null,
): string | undefined {
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const code = isRecord(body) ? body.code : undefined;
  // 501 is Baton's documented answer for ADK dev UI features it does not have (the agent builder, tests):
  // this Worker serves evals and artifacts, so their routes never answer it (decision 048).
  const unsupported = status === 501 && code === "not_supported" && NEVER_SUPPORTED.test(request.path);
  if (status >= 500 && !unsupported) return `server error ${status}: ${text.slice(0, 300)}`;
  if (status === 405 && !allow) return `405 without an Allow header: ${text.slice(0, 300)}`;
  if (status < 400 || request.method === "HEAD") return undefined;
  if (isRecord(body) && typeof body.detail === "string") return undefined;
  const rpcError = isRecord(body) && isRecord(body.error) && typeof body.error.message === "string";
  if ((request.path.startsWith("/a2a/") || request.path.startsWith("/mcp/")) && rpcError) return undefined;
  return `error ${status} without a JSON detail: ${text.slice(0, 300)}`;
}

/** The dev UI features Baton never has: the only paths a 501 may come from. */
const NEVER_SUPPORTED = /^\/dev\/apps\/[^/]+\/(builder|tests)(\/|$|\?)/;

/** A2A answers refusals as JSON-RPC errors (HTTP 200): they must change nothing either. */
const refused = (status: number, text: string) =>
  status >= 400 || /^\{"jsonrpc":"2\.0","id":[^,]*,"error"/.test(text);

describe("fuzzing every endpoint inside workerd", () => {
  it(
    `answers ${REQUESTS} mutated requests (seed ${SEED}) with no 5xx, a JSON detail on every error, and no stored change from a refusal`,
    async () => {
      // Printed on every run: the seed differs per run (vitest.config.ts), and it replays a failure.
      console.log(`fuzz seed ${SEED} (replay: npm run fuzz -- --requests ${REQUESTS} --seed ${SEED})`);
      const { call, world, base } = await setup();
      const r = seededRandom(SEED);
      const statuses = new Map<number, number>();
      const problems: Outcome[] = [];
      let refusals = 0;
      let changed = 0;
      const started = Date.now();
      for (let index = 0; index < REQUESTS; index++) {
        if (REPORT && index % 250 === 0)
          console.log(`fuzz: ${index} requests in ${(Date.now() - started) / 1000} s`);
        const request = fuzzRequest(world, r);
        const names = namesIn(request, base);
        const before = await digest(names, base);
        const answered = call(request.path, {
          method: request.method,
          headers: request.headers,
          token: null,
          ...(request.body === undefined ? {} : { body: request.body }),
        }).then(async (res) => ({
          status: res.status,
          allow: res.headers.get("allow"),
          text: await res.text(),
        }));
        const res = await within(answered, ANSWER_WITHIN_MS);
        if (res === "hung") {
          problems.push({ index, request, status: 0, problem: `no answer within ${ANSWER_WITHIN_MS} ms` });
          break;
        }
        const { text } = res;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const problem = problemOf(request, res.status, text, res.allow);
        if (problem) problems.push({ index, request, status: res.status, problem });
        if (refused(res.status, text)) {
          refusals += 1;
          if ((await digest(names, base)) !== before) {
            changed += 1;
            problems.push({
              index,
              request,
              status: res.status,
              problem: "a refused request changed the store",
            });
          }
        }
      }
      // No session is left busy: each seeded one that still exists takes a new turn.
      for (const [i, user] of world.users.slice(0, 2).entries()) {
        const session = world.sessions[i] ?? "";
        const res = await call("/run", {
          method: "POST",
          json: runBody(world.app, user, session, "still there?"),
        });
        expect([200, 404]).toContain(res.status);
        await res.text();
      }
      const summary = {
        requests: REQUESTS,
        seed: SEED,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        fiveXx: [...statuses].filter(([s]) => s >= 500 && s !== 501).reduce((n, [, c]) => n + c, 0),
        refusals,
        storedChanges: changed,
      };
      if (REPORT) console.log(`fuzz summary ${JSON.stringify(summary)}`);
      const shown = problems
        .slice(0, 5)
        .map((p) => ({ ...p, request: { ...p.request, body: p.request.body?.slice(0, 300) } }));
      expect(shown, `seed ${SEED}: ${problems.length} problems`).toEqual([]);
      expect(changed).toBe(0);
    },
    Math.max(120_000, REQUESTS * 1_000),
  );
});
