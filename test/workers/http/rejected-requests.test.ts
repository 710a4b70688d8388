import { describe, expect, it } from "vitest";
import { helloWorker as setup } from "../support/hello-worker.js";
import { expectJson, runBody } from "../support/http.js";

/** The text as a stream of 64 KiB chunks: a request body without a Content-Length. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.slice(i, i + 65_536));
      controller.close();
    },
  });
}

describe("ADK HTTP API over Durable Object sessions: rejected requests append nothing", () => {
  // Every rejected body also carries app:/user: state, which must not be written either.
  const shared = { stateDelta: { "app:touched": true, "user:touched": true } };
  const message = (a: string, u: string, s: string, newMessage: unknown) => ({
    ...runBody(a, u, s, "x", shared),
    newMessage,
  });
  type Case = [label: string, status: number, body: (app: string, user: string, session: string) => unknown];
  const cases: Case[] = [
    ["an unknown app", 404, (_a, u, s) => runBody("no-such-app", u, s, "hi", shared)],
    ["a session that does not exist", 404, (a, u) => runBody(a, u, "no-such-session", "hi", shared)],
    ["a new message without parts", 400, (a, u, s) => message(a, u, s, { parts: [] })],
    [
      "a new message with a functionCall part",
      400,
      (a, u, s) => message(a, u, s, { parts: [{ functionCall: { name: "f", args: {} } }] }),
    ],
    [
      "a function response mixed with text",
      400,
      (a, u, s) =>
        message(a, u, s, { parts: [{ text: "x" }, { functionResponse: { name: "f", response: {} } }] }),
    ],
  ];

  for (const path of ["/run", "/run_sse"]) {
    it.each(cases)(
      `answers ${path} for %s with %i before any stream, and stores nothing`,
      async (_l, status, body) => {
        const { call, sessions, app, user, session, fake } = setup();
        await sessions.create({ sessionId: session });
        const res = await call(path, { method: "POST", json: body(app, user, session) });
        expect(res.headers.get("content-type")).toContain("application/json");
        expect(await expectJson(res, status)).toHaveProperty("detail");
        const after = await sessions.get(session);
        expect([after.events, after.state]).toEqual([[], {}]);
        expect((await fake.calls()).calls).toEqual([]);
      },
    );
  }

  it("answers a body that does not match the schema with 400 naming the field", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const { userId: _, ...noUser } = runBody(app, user, session, "hi");
    const missing = await expectJson<{ detail: string }>(call("/run", { method: "POST", json: noUser }), 400);
    expect(missing.detail).toMatch(/userId/);
    const wrongType = runBody(app, user, session, "hi", { streaming: "yes" });
    const typed = await expectJson<{ detail: string }>(
      call("/run_sse", { method: "POST", json: wrongType }),
      400,
    );
    expect(typed.detail).toMatch(/streaming/);
    const badPatch = call(`/apps/${app}/users/${user}/sessions/${session}`, {
      method: "PATCH",
      json: { x: 1 },
    });
    expect((await expectJson<{ detail: string }>(badPatch, 400)).detail).toMatch(/stateDelta/);
    expect(await sessions.eventsOf(session)).toEqual([]);
  });

  it("answers invalid JSON with 400 and a body over 1 MiB with 413", async () => {
    const { call, sessions, app, user, session } = setup();
    await sessions.create({ sessionId: session });
    const headers = { "content-type": "application/json" };
    for (const path of ["/run", "/run_sse", `/apps/${app}/users/${user}/sessions/${session}`]) {
      const method = path.startsWith("/apps") ? "PATCH" : "POST";
      const bad = await expectJson<{ detail: string }>(
        call(path, { method, body: "{not json", headers }),
        400,
      );
      expect(bad.detail).toBe("The body is not valid JSON.");
      const huge = JSON.stringify(
        runBody(app, user, session, "hi", { stateDelta: { blob: "x".repeat(1_100_000) } }),
      );
      expect(await expectJson(call(path, { method, body: huge, headers }), 413)).toMatchObject({
        code: "payload_too_large",
      });
      // Without a Content-Length (a streamed body) the limit holds while reading.
      const streamed = call(path, { method, body: streamOf(huge), headers });
      expect(await expectJson(streamed, 413)).toMatchObject({ code: "payload_too_large" });
    }
    expect(await sessions.eventsOf(session)).toEqual([]);
  });
});
