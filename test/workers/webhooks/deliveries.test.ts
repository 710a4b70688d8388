import { describe, expect, it } from "vitest";
import { userText } from "../../../src/core/content.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { TURN_SHARDS } from "../../../src/webhooks/turn-ledger.js";
import { verifiers } from "../../../src/webhooks/verifiers.js";
import { webhook } from "../../../src/webhooks/webhook.js";
import { helloApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { clockAt, hookWorker, issueComment, sign, type TurnView } from "../support/webhooks.js";

const SECRET = "github-test-secret";
const NOW = 1_900_000_000;

/** An app whose `github` hook is the issue's brief, verbatim; `ignore` answers null for "skip" comments. */
function githubApp(name: string) {
  return defineApp({
    name,
    rootAgent: helloApp(name).rootAgent,
    webhooks: [
      webhook({
        name: "github",
        verify: verifiers.github({ secretName: "GITHUB_WEBHOOK_SECRET" }),
        toTurn: ({ payload, headers }) =>
          headers.get("x-skip") === "yes"
            ? null
            : {
                userId: "github",
                sessionId: `issue-${payload.issue.number}`,
                newMessage: userText(payload.comment.body),
              },
      }),
    ],
  });
}

function setup() {
  const ids = freshIds("hook");
  const fake = fakeModelServer();
  const hooks = hookWorker(
    { apps: [githubApp(ids.app)], services: { sleep: noSleep, clock: clockAt(NOW) } },
    { GITHUB_WEBHOOK_SECRET: SECRET, OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl() },
  );
  const path = `/webhooks/${ids.app}/github`;
  const deliver = async (body: string, headers: Record<string, string> = {}) =>
    hooks.post(path, body, { ...(await sign.github(SECRET, body)), ...headers });
  const session = (id: string) =>
    hooks
      .call(`/apps/${ids.app}/users/baton:webhook:github/sessions/${id}`)
      .then((r) => expectJson<Session>(r, 200));
  return { ...ids, hooks, path, deliver, session };
}

describe("POST /webhooks/:app/:hook", () => {
  it("answers 202 with the turn id and session id, enqueues one message, and shows the turn as queued", async () => {
    const t = setup();
    const body = issueComment(7, "hello from an issue");
    const accepted = await expectJson<{ turnId: string; sessionId: string }>(
      t.deliver(body, { "x-github-delivery": crypto.randomUUID() }),
      202,
    );
    expect(accepted).toEqual({ turnId: expect.stringMatching(/^[0-9a-f]{64}$/), sessionId: "issue-7" });
    expect(t.hooks.sent).toEqual([{ turnId: accepted.turnId }]);
    expect(await t.hooks.turn(accepted.turnId)).toEqual({
      turnId: accepted.turnId,
      status: "queued",
      appName: t.app,
      origin: "webhook",
      userId: "baton:webhook:github",
      sessionId: "issue-7",
    } satisfies TurnView);
  });

  it("gives one delivery sent 10 times at once one turn (202 once, 200 nine times) and one user event", async () => {
    const t = setup();
    const body = issueComment(11, "same delivery, ten times");
    const delivery = { "x-github-delivery": crypto.randomUUID() };
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.deliver(body, delivery)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(t.hooks.sent).toHaveLength(1);
    expect(await t.hooks.consume()).toMatchObject({ acked: 1, retried: [] });
    const events = (await t.session("issue-11")).events;
    expect(events.filter((e) => e.author === "user").map((e) => e.content?.parts?.[0]?.text)).toEqual([
      "same delivery, ten times",
    ]);
  });

  it("answers a signed GitHub body replayed under new delivery ids like a duplicate: 200, the first turn, nothing enqueued", async () => {
    const t = setup();
    const body = issueComment(12, "replay me");
    const first = await expectJson<{ turnId: string; sessionId: string }>(
      t.deliver(body, { "x-github-delivery": crypto.randomUUID() }),
      202,
    );
    const replays = await Promise.all(
      Array.from({ length: 5 }, () => t.deliver(body, { "x-github-delivery": crypto.randomUUID() })),
    );
    for (const replay of replays) expect(await expectJson(replay, 200)).toEqual(first);
    expect(t.hooks.sent).toEqual([{ turnId: first.turnId }]);
    // Another body is another delivery, whatever its delivery id.
    const other = issueComment(12, "a new comment");
    expect((await t.deliver(other, { "x-github-delivery": crypto.randomUUID() })).status).toBe(202);
    expect(t.hooks.sent).toHaveLength(2);
  });

  it("keeps deduping a Standard Webhooks delivery by its signed id, not its body: the same body under a new id is a new turn", async () => {
    const t = setup();
    const key = `whsec_${btoa("replay-test-key")}`;
    const app = defineApp({
      name: `${t.app}-sw`,
      rootAgent: helloApp(`${t.app}-sw`).rootAgent,
      webhooks: [
        webhook({
          name: "events",
          verify: verifiers.standardWebhooks({ secretName: "EVENTS_KEY" }),
          toTurn: () => ({ userId: "events", sessionId: "s", newMessage: userText("tick") }),
        }),
      ],
    });
    const hooks = hookWorker({ apps: [app], services: { clock: clockAt(NOW) } }, { EVENTS_KEY: key });
    const body = JSON.stringify({ type: "tick" });
    const post = (id: string) =>
      hooks.post(`/webhooks/${app.name}/events`, body, sign.standardWebhooks(key, body, id, NOW));
    const id = `msg_${crypto.randomUUID()}`;
    expect((await post(id)).status).toBe(202);
    expect((await post(id)).status).toBe(200);
    expect((await post(`msg_${crypto.randomUUID()}`)).status).toBe(202);
  });

  it("answers 400 naming the limit, enqueuing and storing nothing, for an over-long session id, delivery id or a deep body", async () => {
    const t = setup();
    const long = JSON.parse(issueComment(1, "long issue number"));
    long.issue.number = "9".repeat(200);
    const refused = await expectJson<{ detail: string }>(t.deliver(JSON.stringify(long)), 400);
    expect(refused.detail).toMatch(/sessionId: a session id is at most 128 characters \(this one has 206\)/);
    const delivery = { "x-github-delivery": "d".repeat(300) };
    const longDelivery = await expectJson<{ detail: string }>(
      t.deliver(issueComment(2, "hi"), delivery),
      400,
    );
    expect(longDelivery.detail).toMatch(/a delivery id is at most 256 characters/);
    const deep = `{"action":"created","x":${'{"k":'.repeat(100)}1${"}".repeat(100)}}`;
    const tooDeep = await expectJson<{ detail: string }>(t.deliver(deep), 400);
    expect(tooDeep.detail).toMatch(/webhook body\.x\.k.* nests deeper than 64 levels/);
    expect(t.hooks.sent).toEqual([]);
  });

  it("keeps the hook's user in Baton's reserved namespace: baton:webhook:<userId>", async () => {
    const t = setup();
    const accepted = await expectJson<{ turnId: string }>(t.deliver(issueComment(21, "whose?")), 202);
    expect((await t.hooks.turn(accepted.turnId)).userId).toBe("baton:webhook:github");
  });

  it("dedupes by a hash of the body when the provider sends no delivery id", async () => {
    const t = setup();
    const body = issueComment(12, "no delivery header");
    const first = await expectJson<{ turnId: string }>(t.deliver(body), 202);
    const again = await expectJson<{ turnId: string }>(t.deliver(body), 200);
    expect(again).toEqual(first);
    await expectJson(t.deliver(issueComment(12, "another comment")), 202);
    expect(t.hooks.sent).toHaveLength(2);
  });

  it("answers 204 and stores nothing when toTurn returns null", async () => {
    const t = setup();
    const res = await t.deliver(issueComment(13, "ignored"), { "x-skip": "yes" });
    expect(res.status).toBe(204);
    expect(t.hooks.sent).toEqual([]);
    await expectJson(t.hooks.call(`/apps/${t.app}/users/baton:webhook:github/sessions/issue-13`), 404);
  });

  it("refuses a bad or missing signature with 401, storing and enqueuing nothing", async () => {
    const t = setup();
    const body = issueComment(14, "forged");
    const delivery = { "x-github-delivery": crypto.randomUUID() };
    const forged = await t.hooks.post(t.path, body, {
      ...(await sign.github("wrong secret", body)),
      ...delivery,
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({
      detail: "Webhook signature refused: signature does not match.",
      code: "unauthorized",
    });
    expect((await t.hooks.post(t.path, body, delivery)).status).toBe(401);
    expect(t.hooks.sent).toEqual([]);
    // The same delivery, properly signed, is then new: the refusals stored no claim.
    await expectJson(t.deliver(body, delivery), 202);
  });

  it("refuses a body over 1 MiB with 413, malformed JSON with 400, an unknown app or hook with 404", async () => {
    const t = setup();
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    expect((await t.deliver(big)).status).toBe(413);
    const notJson = "{ not json";
    expect(await expectJson(t.deliver(notJson), 400)).toEqual({
      detail: "The webhook body is not valid JSON.",
      code: "invalid_request",
    });
    const body = issueComment(15, "x");
    expect(
      (await t.hooks.post(`/webhooks/${t.app}/gitlab`, body, await sign.github(SECRET, body))).status,
    ).toBe(404);
    expect(
      (await t.hooks.post(`/webhooks/nope-${t.id}/github`, body, await sign.github(SECRET, body))).status,
    ).toBe(404);
    expect(t.hooks.sent).toEqual([]);
  });

  it("answers 400 when toTurn cannot map a payload (a field it reads is missing), enqueuing nothing", async () => {
    const t = setup();
    const res = await expectJson<{ detail: string }>(t.deliver(JSON.stringify({ action: "opened" })), 400);
    expect(res.detail).toMatch(/could not map this payload to a turn \(TypeError/);
    expect(t.hooks.sent).toEqual([]);
  });

  it("answers GitHub's ping with 204 once its signature checks out", async () => {
    const t = setup();
    expect(
      (await t.deliver(JSON.stringify({ zen: "Keep it simple." }), { "x-github-event": "ping" })).status,
    ).toBe(204);
    expect(t.hooks.sent).toEqual([]);
  });

  it("needs the API token for GET /turns/:turnId and answers 404 for an unknown turn", async () => {
    const t = setup();
    const { turnId } = await expectJson<{ turnId: string }>(t.deliver(issueComment(16, "x")), 202);
    expect((await t.hooks.call(`/turns/${turnId}`, { token: null })).status).toBe(401);
    expect((await t.hooks.call(`/turns/${"0".repeat(64)}`)).status).toBe(404);
    expect((await t.hooks.call("/turns/not-a-turn")).status).toBe(404);
    // Its first two digits name its shard: past the last shard, or a shard without it, is unknown too.
    expect((await t.hooks.call(`/turns/ff${turnId.slice(2)}`)).status).toBe(404);
    const otherShard = ((Number.parseInt(turnId.slice(0, 2), 16) + 1) % TURN_SHARDS)
      .toString(16)
      .padStart(2, "0");
    expect((await t.hooks.call(`/turns/${otherShard}${turnId.slice(2)}`)).status).toBe(404);
  });

  it("keeps one session's turns in one shard and spreads sessions over the fixed shards (decision 038)", async () => {
    const t = setup();
    const shardOf = async (issue: number, text = `shard ${issue}`) => {
      const { turnId } = await expectJson<{ turnId: string }>(
        t.deliver(issueComment(issue, text), { "x-github-delivery": crypto.randomUUID() }),
        202,
      );
      return Number.parseInt(turnId.slice(0, 2), 16);
    };
    const sameSession = await Promise.all([1, 2, 3].map((n) => shardOf(40, `comment ${n}`)));
    expect(new Set(sameSession).size).toBe(1);
    const spread = new Set(await Promise.all(Array.from({ length: 40 }, (_, i) => shardOf(100 + i))));
    for (const shard of spread) expect(shard).toBeLessThan(TURN_SHARDS);
    // 40 sessions over 32 shards: far more than a handful unless the hash clumps.
    expect(spread.size).toBeGreaterThan(12);
  });
});
