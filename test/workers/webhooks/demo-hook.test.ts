import { describe, expect, inject, it, vi } from "vitest";
import type { Session } from "../../../src/core/session.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
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
    const session = await expectJson<Session>(call(`/apps/demo/users/github/sessions/issue-${issue}`), 200);
    expect(session.events[0]?.content?.parts?.[0]?.text).toBe("What's the weather in Paris?");
    expect(session.events.filter((e) => e.author === "user")).toHaveLength(1);
    expect(session.events.map((e) => e.author)).toContain("weather");
  });

  it("ignores other GitHub events with 204", async () => {
    const call = callEntry();
    const body = JSON.stringify({ ref: "refs/heads/main" });
    const headers = { ...(await sign.github(inject("githubWebhookSecret"), body)), "x-github-event": "push" };
    const res = await call("/webhooks/demo/github", { method: "POST", body, headers, token: null });
    expect(res.status).toBe(204);
  });
});
