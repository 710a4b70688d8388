import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import type { Session } from "../../../src/core/session.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { turnLedger } from "../../../src/webhooks/turn-ledger.js";
import { callEntry, expectJson } from "../support/http.js";
import { issueComment, sign, type TurnView } from "../support/webhooks.js";

describe("the demo entry's GitHub hook over the real local queue", () => {
  it("turns a signed issue comment into a turn that the TURNS consumer runs to done", async () => {
    const call = callEntry();
    const issue = Math.floor(Math.random() * 1e9);
    const body = issueComment(issue, "What's the weather in Paris?");
    const headers = {
      ...(await sign.github(inject("githubWebhookSecret"), body)),
      "content-type": "application/json",
      "x-github-event": "issue_comment",
      "x-github-delivery": crypto.randomUUID(),
    };
    const post = () => call("/webhooks/demo/github", { method: "POST", body, headers, token: null });
    const accepted = await expectJson<{ turnId: string; sessionId: string }>(post(), 202);
    expect(accepted.sessionId).toBe(`issue-${issue}`);
    expect(await expectJson(post(), 200)).toEqual(accepted);
    // Miniflare's queue hands the message to the entry's own `queue` handler within its batch timeout.
    await vi.waitFor(
      async () =>
        expect((await expectJson<TurnView>(call(`/turns/${accepted.turnId}`), 200)).status).toBe("done"),
      { timeout: 15_000, interval: 100 },
    );
    const session = await expectJson<Session>(
      call(`/apps/demo/users/baton:webhook:github/sessions/issue-${issue}`),
      200,
    );
    expect(session.events[0]?.content?.parts?.[0]?.text).toBe("What's the weather in Paris?");
    expect(session.events.filter((e) => e.author === "user")).toHaveLength(1);
    expect(session.events.map((e) => e.author)).toContain("weather");
  });

  it("runs ten concurrent deliveries to one issue's session to done, in the order they were accepted, with no dead letter", {
    timeout: 90_000,
  }, async () => {
    const call = callEntry();
    const issue = Math.floor(Math.random() * 1e9);
    const deliver = async (i: number) => {
      const body = issueComment(issue, `comment ${i}: what's the weather in Paris?`);
      const headers = {
        ...(await sign.github(inject("githubWebhookSecret"), body)),
        "x-github-event": "issue_comment",
        "x-github-delivery": crypto.randomUUID(),
      };
      const res = call("/webhooks/demo/github", { method: "POST", body, headers, token: null });
      return (await expectJson<{ turnId: string }>(res, 202)).turnId;
    };
    const turnIds = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i)));
    const status = async (turnId: string) =>
      (await expectJson<TurnView>(call(`/turns/${turnId}`), 200)).status;
    await vi.waitFor(
      async () => expect(await Promise.all(turnIds.map(status))).toEqual(turnIds.map(() => "done")),
      {
        timeout: 80_000,
        interval: 250,
      },
    );
    if (!env.WEBHOOK_TURNS) throw new Error("The demo entry's WEBHOOK_TURNS binding is missing.");
    const ledger = turnLedger(env.WEBHOOK_TURNS);
    const records = await Promise.all(turnIds.map(async (turnId) => ledger.turn(turnId)?.get()));
    const byPlace = records
      .map((record) => ({ place: record?.place ?? 0, text: record?.request.newMessage.parts?.[0]?.text }))
      .sort((a, b) => a.place - b.place);
    expect(byPlace.map((p) => p.place)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const { userId } = await expectJson<TurnView>(call(`/turns/${turnIds[0]}`), 200);
    const session = await expectJson<Session>(
      call(`/apps/demo/users/${userId}/sessions/issue-${issue}`),
      200,
    );
    const users = session.events.filter((e) => e.author === "user");
    expect(users.map((e) => e.content?.parts?.[0]?.text)).toEqual(byPlace.map((p) => p.text));
    expect(session.events.filter((e) => e.errorCode !== undefined)).toEqual([]);
    expect(records.map((record) => record?.attempts)).toEqual(turnIds.map(() => 1));
  });

  it("ignores other GitHub events with 204", async () => {
    const call = callEntry();
    const body = JSON.stringify({ ref: "refs/heads/main" });
    const headers = { ...(await sign.github(inject("githubWebhookSecret"), body)), "x-github-event": "push" };
    const res = await call("/webhooks/demo/github", { method: "POST", body, headers, token: null });
    expect(res.status).toBe(204);
  });
});
