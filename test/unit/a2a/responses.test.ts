import { describe, expect, it } from "vitest";
import { textOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { a2a, cardV1, type Json } from "../support/fake-a2a-peer.js";
import { remoteTree } from "../support/remote-tree.js";

const fromRemote = (events: Event[]) => events.filter((e) => e.author === "remote");
const thoughts = (e: Event | undefined) => (e?.content?.parts ?? []).every((p) => p.thought === true);

/** Runs one non-streamed turn whose blocking reply is `result`. */
async function blocking(result: Json) {
  const h = await remoteTree({ replies: [{ result }] });
  return { ...h, events: fromRemote(await h.turn("go")) };
}

/** Runs one streamed turn whose SSE replies are `stream`. */
async function streamed(stream: Json[]) {
  const h = await remoteTree({ replies: [{ stream }] });
  return { ...h, events: fromRemote(await h.turn("go", { streaming: true })) };
}

describe("remote replies become events, legacy handler (ADK-SEMANTICS §5.3, §10.E)", () => {
  it("A01: a message reply is one model event with a2a:context_id, a2a:request and a2a:response, and is stored", async () => {
    const { events, session } = await blocking({ message: a2a.agentMessage("hi", { contextId: "c1" }) });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.content).toEqual({ role: "model", parts: [{ text: "hi" }] });
    expect(event?.customMetadata?.["a2a:context_id"]).toBe("c1");
    expect(event?.customMetadata?.["a2a:request"]).toMatchObject({ role: "ROLE_USER" });
    expect(event?.customMetadata?.["a2a:response"]).toMatchObject({ messageId: "m-hi" });
    expect((await session()).events.map((e) => e.id)).toContain(event?.id);
  });

  it("A02: a completed task's content is its last artifact only, with a2a:task_id", async () => {
    const { events } = await blocking({
      task: a2a.task("COMPLETED", { artifacts: [a2a.artifact("A", "x"), a2a.artifact("B", "y")] }),
    });
    expect(events.map((e) => textOf(e.content))).toEqual(["y"]);
    expect(events[0]?.customMetadata?.["a2a:task_id"]).toBe("t1");
    expect(events[0]?.errorCode).toBeUndefined();
  });

  it("A03: with no artifacts the status message is the content", async () => {
    const { events } = await blocking({ task: a2a.task("COMPLETED", { statusText: "done" }) });
    expect(textOf(events[0]?.content)).toBe("done");
  });

  it("A04: with neither, the last agent message of the history, never a user message", async () => {
    const history = [a2a.userMessage("q"), a2a.agentMessage("a1"), a2a.userMessage("q2")];
    const { events } = await blocking({ task: a2a.task("COMPLETED", { history }) });
    expect(textOf(events[0]?.content)).toBe("a1");
  });

  it("A05: a working task's status text is a thought", async () => {
    const { events } = await streamed([
      { task: a2a.task("WORKING", { statusText: "thinking" }) },
      a2a.status("COMPLETED", undefined, { final: true }),
    ]);
    expect(events[0]?.content?.parts).toEqual([{ text: "thinking", thought: true }]);
  });

  it("A06: a stream gives an empty task event, a partial chunk that is not stored, and the last chunk", async () => {
    const { events, session } = await streamed([
      { task: a2a.task("WORKING") },
      a2a.status("WORKING"),
      a2a.artifactUpdate("He", false),
      a2a.artifactUpdate("llo", true),
      a2a.status("COMPLETED", undefined, { final: true }),
    ]);
    expect(events.map((e) => [textOf(e.content), e.partial ?? false])).toEqual([
      ["", false],
      ["He", true],
      ["llo", false],
    ]);
    expect(events[0]?.content).toBeUndefined();
    const stored = fromRemote((await session()).events).map((e) => textOf(e.content));
    expect(stored).toEqual(["", "llo"]);
  });

  it("A07: input-required becomes a long-running mock call that pauses the turn", async () => {
    const { events } = await blocking({ task: a2a.task("INPUT_REQUIRED", { statusText: "Which account?" }) });
    const call = events[0]?.content?.parts?.[0]?.functionCall;
    expect(call?.name).toBe("mock_function_call_for_required_user_input");
    expect(call?.args).toEqual({ input_required: "Which account?" });
    expect(events[0]?.longRunningToolIds).toEqual([call?.id]);
    expect(events[0]?.errorCode).toBeUndefined();
  });

  it("auth-required becomes the auth mock call", async () => {
    const { events } = await blocking({ task: a2a.task("AUTH_REQUIRED", { statusText: "Sign in" }) });
    expect(events[0]?.content?.parts?.[0]?.functionCall).toMatchObject({
      name: "mock_function_call_for_required_user_auth",
      args: { auth_required: "Sign in" },
    });
  });

  it("A05 (thought marking): a submitted task's parts are thoughts too", async () => {
    const { events } = await streamed([
      { task: a2a.task("SUBMITTED", { statusText: "queued" }) },
      a2a.status("COMPLETED", "ok", { final: true }),
    ]);
    expect(thoughts(events[0])).toBe(true);
    expect(thoughts(events[1])).toBe(false);
  });

  it("a streamed peer whose card says it cannot stream is called with one blocking request", async () => {
    const h = await remoteTree({
      card: cardV1(false),
      replies: [{ result: { message: a2a.agentMessage("hi") } }],
    });
    const events = fromRemote(await h.turn("go", { streaming: true }));
    expect(events.map((e) => textOf(e.content))).toEqual(["hi"]);
    expect(h.peer.calls.map((c) => c.method)).toEqual(["SendMessage"]);
  });
});
