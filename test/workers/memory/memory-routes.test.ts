import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadMemoryTool } from "../../../src/agents/memory-tools.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import {
  type Call,
  callEntry,
  callWorker,
  expectJson,
  freshIds,
  runBody,
  sessionsOf,
} from "../support/http.js";
import { testIssuer } from "../support/test-issuer.js";

type Refusal = { detail: string; code: string };
type Memories = { memories: { author?: string; content: { parts: { text: string }[] } }[] };

const ASK = "Do you remember my favourite colour? Check your memory.";

/** The memories the turn's load_memory call answered with (the demo concierge calls it on "memory"). */
async function recall(call: Call, app: string, user: string, session: string): Promise<string[]> {
  await sessionsOf(call, app, user).create({ sessionId: session });
  const events = await expectJson<Event[]>(
    call("/run", { method: "POST", json: runBody(app, user, session, ASK) }),
    200,
  );
  const response = events.find((e) => e.content?.parts?.[0]?.functionResponse?.name === "load_memory");
  const answer = response?.content?.parts?.[0]?.functionResponse?.response;
  if (!answer) throw new Error("the turn made no load_memory call");
  // SAFETY: load_memory answers ADK's LoadMemoryResponse; the assertions below read its texts.
  const { memories } = answer as Memories;
  return memories.map((m) => `${m.author}: ${m.content.parts.map((p) => p.text).join(" ")}`);
}

async function say(call: Call, app: string, user: string, session: string, text: string): Promise<void> {
  await sessionsOf(call, app, user).create({ sessionId: session });
  await expectJson(call("/run", { method: "POST", json: runBody(app, user, session, text) }), 200);
}

describe("memory in the user's Durable Object, over HTTP", () => {
  it("adds a session with ADK's PATCH …/memory; load_memory finds it in the user's later session, never another's", async () => {
    const call = callEntry();
    const { id } = freshIds();
    const [alice, bob] = [`alice-${id}`, `bob-${id}`];
    await say(call, "demo", alice, "monday", "My favourite colour is teal.");
    await say(call, "demo", bob, "monday", "My favourite colour is crimson.");
    // Nothing is remembered before the session is added.
    expect(await recall(call, "demo", alice, "tuesday")).toEqual([]);

    const patch = (user: string, body: unknown) =>
      call(`/apps/demo/users/${user}/memory`, { method: "PATCH", json: body });
    expect(await expectJson(patch(alice, { sessionId: "monday" }), 200)).toBeNull();
    expect(await expectJson(patch(alice, { session_id: "monday" }), 200)).toBeNull();

    // The user's line, and the demo concierge's answer that repeated it; nothing of bob's.
    const found = await recall(call, "demo", alice, "friday");
    expect(found).toContain("user: My favourite colour is teal.");
    expect(found.join("\n")).not.toContain("crimson");
    expect(await recall(call, "demo", bob, "friday")).toEqual([]);
  });

  it("answers ADK's refusals: 404 for an unknown session, 400 for a body without a session id", async () => {
    const call = callEntry();
    const { user } = freshIds();
    const patch = (body: unknown) => call(`/apps/demo/users/${user}/memory`, { method: "PATCH", json: body });
    expect(await expectJson<Refusal>(patch({ sessionId: "never" }), 404)).toMatchObject({
      code: "session_not_found",
    });
    expect((await expectJson<Refusal>(patch({}), 400)).detail).toMatch(/sessionId/);
    expect((await expectJson<Refusal>(patch({ sessionId: "s", extra: 1 }), 400)).detail).toMatch(/extra/);
  });

  it("adds each turn by itself for an app with memory.addSessionsAutomatically", async () => {
    const { app, id } = freshIds("auto-mem");
    const root = new LlmAgent({ name: "assistant", model: "demo:assistant", tools: [loadMemoryTool] });
    const call = callWorker({
      apps: [defineApp({ name: app, rootAgent: root, memory: { addSessionsAutomatically: true } })],
    });
    await say(call, app, `u-${id}`, "first", "My favourite colour is teal.");
    expect(await recall(call, app, `u-${id}`, "second")).toEqual(
      expect.arrayContaining(["user: My favourite colour is teal."]),
    );
    expect(await recall(call, app, `v-${id}`, "second")).toEqual([]);
  });

  it("lets an end user add only their own sessions to their own memory", async () => {
    const issuer = await testIssuer();
    const { app, id } = freshIds("mem-users");
    const root = new LlmAgent({ name: "assistant", model: "demo:assistant", tools: [loadMemoryTool] });
    const call = callWorker(
      { apps: [defineApp({ name: app, rootAgent: root })], services: { fetch: issuer.fetch } },
      issuer.vars,
    );
    const alice = `alice-${id}`;
    const asBob: Call = async (path, init = {}) =>
      call(path, { token: await issuer.token({ sub: `bob-${id}` }), ...init });
    await say(call, app, alice, "s1", "My favourite colour is teal.");
    const refused = asBob(`/apps/${app}/users/${alice}/memory`, {
      method: "PATCH",
      json: { sessionId: "s1" },
    });
    expect(await expectJson<Refusal>(refused, 403)).toMatchObject({ code: "forbidden" });
    const own = asBob(`/apps/${app}/users/bob-${id}/memory`, { method: "PATCH", json: { sessionId: "s1" } });
    expect(await expectJson<Refusal>(own, 404)).toMatchObject({ code: "session_not_found" });
  });
});
