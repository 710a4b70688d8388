import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { a2a, type Json } from "../support/fake-a2a-peer.js";
import { remoteTree, transferTo } from "../support/remote-tree.js";

const fromRemote = (events: Event[]) => events.filter((e) => e.author === "remote");
const sentMessage = (call: Json | undefined): Json => {
  const params = call?.params as { message: Json } | undefined;
  if (!params) throw new Error("no call");
  return params.message;
};
const texts = (message: Json) => (message.parts as Json[]).map((p) => p.text);

describe("the outgoing message (ADK-SEMANTICS §5.2)", () => {
  it("A10: the first call sends the user's turns and re-frames the root's events as 'For context:'", async () => {
    const h = await remoteTree(
      { replies: [{ result: { message: a2a.agentMessage("ok", { contextId: "c1" }) } }] },
      {},
      [{ text: "routing…" }, transferTo("remote")],
    );
    await h.turn("U1");
    await h.turn("U2");
    const message = sentMessage(h.peer.calls[0]);
    expect(texts(message)).toEqual([
      "U1",
      "For context:",
      "[root] said: routing…",
      "U2",
      "For context:",
      "[root] called tool `transfer_to_agent` with parameters: {'agent_name': 'remote'}",
      "For context:",
      "[root] `transfer_to_agent` tool returned result: {'result': None}",
    ]);
    expect((message.parts as Json[])[0]?.metadata).toEqual({ is_user_input: true });
    expect((message.parts as Json[])[1]?.metadata).toBeUndefined();
    expect(message.role).toBe("ROLE_USER");
    expect(message.contextId).toBeUndefined();
    expect(message.taskId).toBeUndefined();
  });

  it("A09: the next turn carries the context id of the last reply, no task id, and only what is new", async () => {
    const h = await remoteTree({
      replies: [{ result: { message: a2a.agentMessage("hi", { contextId: "c1" }) } }],
    });
    await h.turn("first");
    await h.turn("second");
    const message = sentMessage(h.peer.calls[1]);
    expect(message.contextId).toBe("c1");
    expect(message.taskId).toBeUndefined();
    expect(texts(message)).toEqual([
      "second",
      "For context:",
      "[root] called tool `transfer_to_agent` with parameters: {'agent_name': 'remote'}",
      "For context:",
      "[root] `transfer_to_agent` tool returned result: {'result': None}",
    ]);
    expect(message.messageId).not.toBe(sentMessage(h.peer.calls[0]).messageId);
  });

  it("A15: after a failed request the next turn still carries the context id of the last good reply", async () => {
    const h = await remoteTree({
      replies: [
        { result: { message: a2a.agentMessage("hi", { contextId: "c1" }) } },
        { status: 503 },
        { result: { message: a2a.agentMessage("back") } },
      ],
    });
    await h.turn("first");
    await h.turn("second");
    await h.turn("third");
    const message = sentMessage(h.peer.calls[2]);
    expect(message.contextId).toBe("c1");
    expect(texts(message)).toContain("second");
    expect(texts(message)).toContain("third");
  });

  it("A08: the user's answer to input-required continues the same task and context with the answer as text", async () => {
    const h = await remoteTree({
      replies: [
        { result: { task: a2a.task("INPUT_REQUIRED", { statusText: "Which account?" }) } },
        { result: { task: a2a.task("COMPLETED", { statusText: "done" }) } },
      ],
    });
    const [paused] = fromRemote(await h.turn("pay"));
    const call = paused?.content?.parts?.[0]?.functionCall;
    expect(call?.id).toBeDefined();
    const answer = await h.runner.run({
      userId: "u",
      sessionId: "s",
      newMessage: {
        role: "user",
        parts: [
          { functionResponse: { id: call?.id, name: call?.name ?? "", response: { result: "acct-7" } } },
        ],
      },
    });
    const events: Event[] = [];
    for await (const e of answer) events.push(e);
    expect(events[0]?.author).toBe("remote");
    const message = sentMessage(h.peer.calls[1]);
    expect(texts(message)).toEqual(["acct-7"]);
    expect(message.taskId).toBe("t1");
    expect(message.contextId).toBe("c1");
  });

  it("A11: with nothing new to send, one empty event and no request", async () => {
    const h = await remoteTree({
      replies: [{ result: { message: a2a.agentMessage("hi", { contextId: "c1" }) } }],
    });
    await h.turn("first");
    // The remote agent runs again right after its own reply: nothing happened since.
    const remote = h.remote;
    const session = await h.session();
    const { InvocationContext } = await import("../../../src/agents/invocation-context.js");
    const ctx = new InvocationContext({
      invocationId: "e-x",
      session,
      rootAgent: remote,
      agent: remote,
      userContent: { role: "user", parts: [] },
      runConfig: { streaming: false, maxLlmCalls: 0 },
      services: h.services,
    });
    const events: Event[] = [];
    for await (const e of remote.runAsync(ctx)) events.push(e);
    expect(events).toHaveLength(1);
    expect(events[0]?.content).toEqual({});
    expect(events[0]?.errorCode).toBeUndefined();
    expect(h.peer.calls).toHaveLength(1);
  });

  it("asks for ADK's A2A extension when useLegacy is false", async () => {
    const seen: (string | null)[] = [];
    const h = await remoteTree({ replies: [{ result: { message: a2a.agentMessage("hi") } }] }, (peer) => ({
      useLegacy: false,
      headers: { Authorization: "Bearer t" },
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        if (init?.method === "POST") seen.push(headers.get("A2A-Extensions"), headers.get("Authorization"));
        return peer.fetch(input, init);
      },
    }));
    await h.turn("go");
    expect(seen).toEqual(["https://google.github.io/adk-docs/a2a/a2a-extension/", "Bearer t"]);
  });
});
