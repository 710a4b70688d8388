import { describe, expect, it } from "vitest";
import { node } from "../../../src/workflow/build-node.js";
import type { NodeContext } from "../../../src/workflow/node-context.js";
import { Workflow } from "../../../src/workflow/workflow.js";
import { deferred } from "../support/deferred.js";
import { harness } from "../support/harness.js";
import { collect, text } from "../support/run-helpers.js";
import { lines } from "./workflow-helpers.js";

type Harness = Awaited<ReturnType<typeof harness>>;

/**
 * Starts a turn and leaves it where it stands once `reached` resolves, as a dying isolate leaves it: nothing
 * more is stored and no error event is written; its lease lapses (the clock moves past it).
 */
async function cutOff(h: Harness, message: string, reached: Promise<void>): Promise<string> {
  let invocationId = "";
  void (async () => {
    for await (const event of h.runner.run({ userId: "u", sessionId: "s", newMessage: text(message) }))
      invocationId = event.invocationId;
  })();
  await reached;
  h.services.clockMs.value += 10 * 60_000;
  return invocationId;
}

/** The same invocation again, as the session object's resume does (decision 028): the stored user event is its message. */
const resume = (h: Harness, invocationId: string) =>
  collect(h.runner, { userId: "u", sessionId: "s", newMessage: text("ignored"), invocationId, resume: true });

function shop(chargeIdempotent: boolean, hangFirst = true) {
  const calls = { quote: 0, charge: 0, receipt: 0 };
  const charging = deferred();
  const quote = node(
    () => {
      calls.quote++;
      return 42;
    },
    { name: "quote" },
  );
  const charge = node(
    async (_c: NodeContext, amount: number) => {
      calls.charge++;
      if (hangFirst && calls.charge === 1) {
        charging.resolve();
        await new Promise(() => undefined);
      }
      return `charged ${amount}`;
    },
    { name: "charge", idempotent: chargeIdempotent },
  );
  const receipt = node(
    (_c: NodeContext, charged: string) => {
      calls.receipt++;
      return `receipt: ${charged}`;
    },
    { name: "receipt" },
  );
  return {
    wf: new Workflow({ name: "shop", edges: [["START", quote, charge, receipt]] }),
    calls,
    charging: charging.promise,
  };
}

describe("durable node by node: a turn cut off mid-workflow resumes at its first unfinished node (decision 049)", () => {
  it("does not run a node that is not idempotent twice: the resumed turn records NODE_INTERRUPTED at it", async () => {
    const { wf, calls, charging } = shop(false);
    const h = await harness(wf);
    const invocationId = await cutOff(h, "buy", charging);
    const events = await resume(h, invocationId);
    expect(lines(events)).toEqual(["charge@shop/charge !NODE_INTERRUPTED"]);
    expect(events[0]?.errorMessage).toMatch(/Node 'charge' was interrupted before it finished/);
    expect(calls).toEqual({ quote: 1, charge: 1, receipt: 0 });
  });

  it("runs an idempotent node that was cut off again, and what follows it, without rerunning finished nodes", async () => {
    const { wf, calls, charging } = shop(true);
    const h = await harness(wf);
    const invocationId = await cutOff(h, "buy", charging);
    const events = await resume(h, invocationId);
    expect(lines(events)).toEqual([
      'charge@shop/charge charged 42 => "charged 42"',
      'receipt@shop/receipt receipt: charged 42 => "receipt: charged 42"',
    ]);
    expect(calls).toEqual({ quote: 1, charge: 2, receipt: 1 });
    const stored = (await h.session()).events.filter(
      (e) => e.invocationId === invocationId && e.author === "quote",
    );
    expect(stored.filter((e) => e.output !== undefined)).toHaveLength(1);
  });

  it("runs nothing again when the invocation is resumed after its last node's output was stored", async () => {
    const { wf, calls } = shop(true, false);
    const h = await harness(wf);
    const first = await collect(h.runner, { userId: "u", sessionId: "s", newMessage: text("buy") });
    expect(first.at(-1)?.output).toBe("receipt: charged 42");
    const invocationId = first[0]?.invocationId ?? "";
    const before = (await h.session()).events.length;
    expect(await resume(h, invocationId)).toEqual([]);
    expect((await h.session()).events).toHaveLength(before);
    expect(calls).toEqual({ quote: 1, charge: 1, receipt: 1 });
  });

  it("stores the running mark of a node that is not idempotent before its body runs", async () => {
    const seen: string[] = [];
    const h = await harness(
      new Workflow({
        name: "w",
        edges: [
          [
            "START",
            node(
              async (ctx: NodeContext) => {
                seen.push(
                  ...ctx.session.events.map((e) => `${e.author}:${String(e.actions.agentState?.status)}`),
                );
                return "ok";
              },
              { name: "step" },
            ),
          ],
        ],
      }),
    );
    await h.turn("go");
    expect(seen).toEqual(["user:undefined", "step:running"]);
  });
});
