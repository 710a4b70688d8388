import { describe, expect, it } from "vitest";
import { userText } from "../../../src/core/content.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
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
    hooks.call(`/apps/${ids.app}/users/github/sessions/${id}`).then((r) => expectJson<Session>(r, 200));
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
      userId: "github",
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
    await expectJson(t.hooks.call(`/apps/${t.app}/users/github/sessions/issue-13`), 404);
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
  });
});
