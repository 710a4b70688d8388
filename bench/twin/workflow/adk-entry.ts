/** The workflow twin bench's ADK side (bundled by `workflow-bench.ts`; `@google/adk` loads from node_modules). */
import { type Event, InMemorySessionService, Runner, setLogger } from "@google/adk";
import { adkWorkflow } from "./adk-workflows.js";
import { SCENARIOS } from "./scenarios.js";
import { message, runWorkflowSide } from "./side-run.js";

const scenario = SCENARIOS.find((s) => s.name === "fan-out + join");
if (!scenario) throw new Error("no fan-out scenario");
setLogger(null);
const sessions = new InMemorySessionService();
const runner = new Runner({ appName: "twin", agent: adkWorkflow(scenario), sessionService: sessions });
const key = (sessionId: string) => ({ appName: "twin", userId: "u", sessionId });
await runWorkflowSide("adk", {
  createSession: async (id) => void (await sessions.createSession(key(id))),
  deleteSession: (id) => sessions.deleteSession(key(id)),
  async turn(sessionId, i) {
    let last: Event | undefined;
    const newMessage = { role: "user", parts: [{ text: message(i) }] };
    for await (const event of runner.runAsync({ userId: "u", sessionId, newMessage }))
      if (event.output !== undefined) last = event;
    return last?.output;
  },
});
