import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { a2a, type PeerReply } from "../support/fake-a2a-peer.js";
import { remoteTree, transferTo } from "../support/remote-tree.js";

const fromRemote = (events: Event[]) => events.filter((e) => e.author === "remote");

/** One turn against a peer that answers `reply`; the root answers once more if the remote gives nothing. */
async function failingTurn(reply: PeerReply, streaming = false, timeoutMs = 5_000) {
  const h = await remoteTree({ replies: [reply] }, { timeoutMs }, [transferTo("remote"), { text: "root" }]);
  const events = fromRemote(await h.turn("go", { streaming }));
  return { ...h, events };
}

const errorOf = (events: Event[]) => {
  expect(events.filter((e) => e.errorCode)).toHaveLength(1);
  const event = events.find((e) => e.errorCode);
  expect(event?.content).toBeUndefined();
  return event;
};

describe("transport failures are one error event, and the turn does not throw (ADK-SEMANTICS §5.6)", () => {
  it.each([false, true])(
    "A12: HTTP 503 gives A2A_REQUEST_FAILED with a2a:status_code 503 (streaming %s)",
    async (streaming) => {
      const { events, session } = await failingTurn({ status: 503 }, streaming);
      const event = errorOf(events);
      expect(event?.errorCode).toBe("A2A_REQUEST_FAILED");
      expect(event?.errorMessage).toMatch(/^A2A request failed:/);
      expect(event?.customMetadata?.["a2a:status_code"]).toBe("503");
      expect(event?.customMetadata?.["a2a:request"]).toMatchObject({ role: "ROLE_USER" });
      expect((await session()).events.some((e) => e.id === event?.id)).toBe(true);
    },
  );

  it("A13: a refused connection gives A2A_REQUEST_FAILED without a status code", async () => {
    const event = errorOf((await failingTurn({ refuse: true })).events);
    expect(event?.errorCode).toBe("A2A_REQUEST_FAILED");
    expect(event?.customMetadata?.["a2a:status_code"]).toBeUndefined();
  });

  it.each([false, true])(
    "a peer slower than timeoutMs gives A2A_TIMEOUT (streaming %s)",
    async (streaming) => {
      const event = errorOf((await failingTurn({ hang: true }, streaming, 50)).events);
      expect(event?.errorCode).toBe("A2A_TIMEOUT");
      expect(event?.errorMessage).toContain("50 ms");
    },
  );

  it.each([
    ["garbage", { raw: "<html>not json</html>" }],
    ["a JSON-RPC reply without result", { raw: JSON.stringify({ jsonrpc: "2.0", id: 1 }) }],
    ["a reply that is not a task or message", { result: { weather: "sunny" } }],
  ] as const)("a malformed reply (%s) gives A2A_PROTOCOL_ERROR", async (_name, reply) => {
    const event = errorOf((await failingTurn(reply)).events);
    expect(event?.errorCode).toBe("A2A_PROTOCOL_ERROR");
  });

  it.each([false, true])(
    "an A2A error object (-32001) gives A2A_REQUEST_FAILED with its code (streaming %s)",
    async (streaming) => {
      const event = errorOf(
        (await failingTurn({ error: { code: -32001, message: "Task not found" } }, streaming)).events,
      );
      expect(event?.errorCode).toBe("A2A_REQUEST_FAILED");
      expect(event?.customMetadata?.["a2a:error_code"]).toBe(-32001);
      expect(event?.errorMessage).toContain("Task not found");
    },
  );

  it("a stream cut half-way keeps the events already yielded and ends with one error event", async () => {
    const { events, session } = await failingTurn(
      { stream: [{ task: a2a.task("WORKING", { statusText: "step 1" }) }], cut: true },
      true,
    );
    expect(events[0]?.errorCode).toBeUndefined();
    expect(events.at(-1)?.errorCode).toBe("A2A_REQUEST_FAILED");
    expect(fromRemote((await session()).events)).toHaveLength(2);
  });

  it("a stream that closes before the task settles is a protocol error", async () => {
    const { events } = await failingTurn(
      { stream: [{ task: a2a.task("WORKING", { statusText: "step 1" }) }] },
      true,
    );
    expect(events.at(-1)?.errorCode).toBe("A2A_PROTOCOL_ERROR");
    expect(events.at(-1)?.errorMessage).toContain("ended before the task finished");
  });

  it("a reply larger than 4 MiB is refused as a protocol error", async () => {
    const big = "x".repeat(4 * 1024 * 1024 + 10);
    const event = errorOf((await failingTurn({ result: { message: a2a.agentMessage(big) } })).events);
    expect(event?.errorCode).toBe("A2A_PROTOCOL_ERROR");
    expect(event?.errorMessage).toContain("larger than");
  });

  it("a streamed event larger than 4 MiB is refused as a protocol error", async () => {
    const big = "x".repeat(4 * 1024 * 1024 + 10);
    const { events } = await failingTurn({ stream: [{ message: a2a.agentMessage(big) }] }, true);
    expect(events.at(-1)?.errorCode).toBe("A2A_PROTOCOL_ERROR");
  });
});
