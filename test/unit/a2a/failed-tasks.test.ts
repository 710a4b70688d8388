import { describe, expect, it } from "vitest";
import type { ResponseItem } from "../../../src/a2a/client/response-item.js";
import { textOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { a2a, type Json } from "../support/fake-a2a-peer.js";
import { remoteTree, transferTo } from "../support/remote-tree.js";

const fromRemote = (events: Event[]) => events.filter((e) => e.author === "remote");

/** The same reply as a plain peer sends it, or as a peer of ADK's A2A extension (metadata `adk_actions`). */
const HANDLERS = {
  legacy: (item: Json) => item,
  extension: (item: Json) => {
    const [[kind, value]] = Object.entries(item) as [[string, Json]];
    return { [kind]: { ...value, metadata: { ...(value.metadata as Json), adk_actions: {} } } };
  },
} as const;

describe.each(Object.entries(HANDLERS))(
  "failed remote tasks are error events, %s handler (ADK-SEMANTICS §5.7)",
  (_name, wrap) => {
    const blocking = async (result: Json, streaming = false) => {
      const h = await remoteTree({
        replies: [streaming ? { stream: [wrap(result)] } : { result: wrap(result) }],
      });
      return { ...h, events: fromRemote(await h.turn("go", { streaming })) };
    };
    const stream = async (items: Json[]) => {
      const h = await remoteTree({ replies: [{ stream: items.map(wrap) }] });
      return { ...h, events: fromRemote(await h.turn("go", { streaming: true })) };
    };

    it("A16: a failed task with status message 'DB down' is A2A_TASK_FAILED with that message", async () => {
      const { events } = await blocking({ task: a2a.task("FAILED", { statusText: "DB down" }) });
      expect(events).toHaveLength(1);
      expect(events[0]?.errorCode).toBe("A2A_TASK_FAILED");
      expect(events[0]?.errorMessage).toBe("DB down");
    });

    it("A17: the message comes from the status, never from the artifact, whose content is kept", async () => {
      const { events } = await blocking({
        task: a2a.task("FAILED", {
          statusText: "tool exploded",
          artifacts: [a2a.artifact("a", "partial result")],
        }),
      });
      expect(events[0]?.errorMessage).toBe("tool exploded");
      expect(textOf(events[0]?.content)).toBe("partial result");
    });

    it("A18: a failed task with no message falls back to 'Remote A2A task failed', content kept", async () => {
      const { events } = await blocking({
        task: a2a.task("FAILED", { artifacts: [a2a.artifact("a", "x")] }),
      });
      expect(events[0]?.errorCode).toBe("A2A_TASK_FAILED");
      expect(events[0]?.errorMessage).toBe("Remote A2A task failed");
      expect(textOf(events[0]?.content)).toBe("x");
    });

    it("never takes the message from the history, even when progress text is there", async () => {
      const { events } = await blocking({
        task: a2a.task("FAILED", { history: [a2a.userMessage("q"), a2a.agentMessage("Reading a.txt.")] }),
      });
      expect(events[0]?.errorMessage).toBe("Remote A2A task failed");
    });

    it("joins the failed status's text parts with a newline", async () => {
      const status = {
        state: "TASK_STATE_FAILED",
        message: {
          messageId: "m",
          role: "ROLE_AGENT",
          parts: [{ text: "a" }, { data: { x: 1 } }, { text: "b" }],
        },
      };
      const { events } = await blocking({ task: { id: "t1", contextId: "c1", status } });
      expect(events[0]?.errorMessage).toBe("a\nb");
    });

    it("A19: a failed status update with a message, in a stream, is an error event with that message", async () => {
      const { events } = await stream([
        { task: a2a.task("WORKING") },
        a2a.status("FAILED", "quota", { final: true }),
      ]);
      const failed = events.filter((e) => e.errorCode);
      expect(failed).toHaveLength(1);
      expect(failed[0]?.errorCode).toBe("A2A_TASK_FAILED");
      expect(failed[0]?.errorMessage).toBe("quota");
    });

    it("A19: a bare failed status update creates a new error event with the fallback message and no content", async () => {
      const { events, session } = await stream([
        { task: a2a.task("WORKING") },
        a2a.status("FAILED", undefined, { final: true }),
      ]);
      const failed = events.at(-1);
      expect(failed?.errorCode).toBe("A2A_TASK_FAILED");
      expect(failed?.errorMessage).toBe("Remote A2A task failed");
      expect(failed?.content).toBeUndefined();
      expect(failed?.customMetadata?.["a2a:task_id"]).toBe("t1");
      expect(fromRemote((await session()).events).at(-1)?.errorCode).toBe("A2A_TASK_FAILED");
    });

    it("a failed Task as the first stream item is marked as in a blocking reply", async () => {
      const { events } = await blocking({ task: a2a.task("FAILED", { statusText: "boom" }) }, true);
      expect(events.map((e) => [e.errorCode, e.errorMessage])).toEqual([["A2A_TASK_FAILED", "boom"]]);
    });

    it.each(["CANCELED", "REJECTED", "COMPLETED", "INPUT_REQUIRED", "AUTH_REQUIRED", "WORKING", "SUBMITTED"])(
      "A20: a %s task is not marked",
      async (state) => {
        const { events } = await blocking({
          task: a2a.task(state, { statusText: "stopped", artifacts: [a2a.artifact("a", "r")] }),
        });
        expect(events.every((e) => e.errorCode === undefined && e.errorMessage === undefined)).toBe(true);
      },
    );

    it("A20: an artifact update that arrives while the task is already failed is not marked", async () => {
      const { events } = await stream([
        { task: a2a.task("WORKING") },
        a2a.status("FAILED", "gone", { final: false }),
        a2a.artifactUpdate("late", true),
      ]);
      const late = events.find((e) => textOf(e.content) === "late");
      expect(late?.errorCode).toBeUndefined();
      expect(late?.customMetadata?.["a2a:response"]).toMatchObject({
        status: { state: "TASK_STATE_FAILED" },
      });
    });

    it("A21: after a failed task the next turn goes back to the root (a remote agent is not sticky)", async () => {
      const h = await remoteTree({
        replies: [{ result: wrap({ task: a2a.task("FAILED", { statusText: "DB down" }) }) }],
      });
      await h.turn("first");
      const second = await h.turn("second");
      expect(second[0]?.author).toBe("root");
      expect(h.rootModel.calls).toHaveLength(2);
    });
  },
);

describe("failed-task marking with custom converters and interceptors", () => {
  const failed = { task: a2a.task("FAILED", { statusText: "DB down", artifacts: [a2a.artifact("a", "x")] }) };

  it("marks the event a custom converter made", async () => {
    const h = await remoteTree(
      { replies: [{ result: failed }] },
      { converters: { task: () => ({ content: { role: "model", parts: [{ text: "custom" }] } }) } },
    );
    const [event] = fromRemote(await h.turn("go"));
    expect([event?.errorCode, event?.errorMessage, textOf(event?.content)]).toEqual([
      "A2A_TASK_FAILED",
      "DB down",
      "custom",
    ]);
  });

  it("keeps an errorCode the converter set, but the message still comes from the status", async () => {
    const h = await remoteTree(
      { replies: [{ result: failed }] },
      { converters: { task: () => ({ errorCode: "BUILD_BROKEN", errorMessage: "from the artifact: x" }) } },
    );
    const [event] = fromRemote(await h.turn("go"));
    expect([event?.errorCode, event?.errorMessage]).toEqual(["BUILD_BROKEN", "DB down"]);
  });

  it("creates the error event when a custom converter makes none", async () => {
    const h = await remoteTree({ replies: [{ result: failed }] }, { converters: { task: () => undefined } });
    const events = fromRemote(await h.turn("go"));
    expect(events.map((e) => [e.errorCode, e.errorMessage, e.content])).toEqual([
      ["A2A_TASK_FAILED", "DB down", undefined],
    ]);
  });

  it("applies the mark before the after-request interceptors run", async () => {
    const seen: (string | undefined)[] = [];
    const h = await remoteTree(
      { replies: [{ result: failed }] },
      {
        interceptors: [
          {
            afterRequest: async (_ctx, event: Event, item: ResponseItem) => {
              seen.push(`${item.kind}:${event.errorCode}`);
              return event;
            },
          },
        ],
      },
    );
    await h.turn("go");
    expect(seen).toEqual(["task:A2A_TASK_FAILED"]);
  });

  it("an after-request interceptor may drop an event", async () => {
    const h = await remoteTree(
      { replies: [{ result: { message: a2a.agentMessage("hi") } }] },
      { interceptors: [{ afterRequest: async () => null }] },
      [transferTo("remote"), { text: "root answers" }],
    );
    expect(fromRemote(await h.turn("go"))).toEqual([]);
  });

  it("a before-request interceptor may answer instead of the peer, and no request is sent", async () => {
    const h = await remoteTree(
      { replies: [{ result: failed }] },
      {
        interceptors: [
          {
            beforeRequest: async (ctx) =>
              ctx.newEvent({ content: { role: "model", parts: [{ text: "cached" }] } }),
          },
        ],
      },
    );
    const events = fromRemote(await h.turn("go"));
    expect(events.map((e) => textOf(e.content))).toEqual(["cached"]);
    expect(h.peer.calls).toEqual([]);
  });
});
