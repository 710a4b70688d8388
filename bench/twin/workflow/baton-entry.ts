/** The workflow twin bench's Baton side (bundled by `workflow-bench.ts` as a Worker would be). */
import type { Event } from "../../../src/index.js";
import { batonRunner } from "./baton-workflows.js";
import { SCENARIOS } from "./scenarios.js";
import { message, runWorkflowSide } from "./side-run.js";

const scenario = SCENARIOS.find((s) => s.name === "fan-out + join");
if (!scenario) throw new Error("no fan-out scenario");
const { store, runner, key } = batonRunner(scenario);
await runWorkflowSide("baton", {
  createSession: async (id) => void (await store.createSession(key(id))),
  deleteSession: (id) => store.deleteSession(key(id)),
  async turn(sessionId, i) {
    let last: Event | undefined;
    const newMessage = { role: "user" as const, parts: [{ text: message(i) }] };
    for await (const event of runner.run({ userId: "u", sessionId, newMessage }))
      if (event.output !== undefined) last = event;
    return last?.output;
  },
});
