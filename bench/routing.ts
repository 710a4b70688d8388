/**
 * Routing cost against session length. The router scans newest-first and stops at the first
 * decision, so a decision from a recent event should cost the same at 100,000 events as at 10.
 * A decision that lies at the start of the log (every later event is a user message) is the
 * contrast: that scan is linear, as it must be.
 */
import { LlmAgent } from "../src/agents/llm-agent.js";
import { createEvent, type Event } from "../src/core/event.js";
import { findAgentToRun } from "../src/router/find-agent-to-run.js";
import { ratio, timePerCall } from "./timing.js";

const billing = new LlmAgent({ name: "billing", model: "demo:" });
const root = new LlmAgent({ name: "root", model: "demo:", subAgents: [billing] });

let n = 0;
const env = { ids: { uuid: () => `id-${++n}` }, clock: { now: () => 1_767_225_600_000 + n } };
const said = (author: string, invocation: number): Event =>
  createEvent(
    {
      invocationId: `e-${invocation}`,
      author,
      content: { role: author === "user" ? "user" : "model", parts: [{ text: "hi" }] },
    },
    env,
  );

/** `size` events; billing's reply is either near the end or the very first agent event. */
function session(size: number, decidingAt: "end" | "start"): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < size; i++) {
    const isAgentTurn = i % 2 === 1;
    const author = !isAgentTurn ? "user" : decidingAt === "end" || i === 1 ? "billing" : "user";
    events.push(said(author, Math.floor(i / 2)));
  }
  return events;
}

export function routingBench(): void {
  const sizes = [10, 1_000, 100_000];
  const sessions = sizes.flatMap((size) => [session(size, "end"), session(size, "start")]);
  for (const s of sessions)
    if (findAgentToRun(s, root).name !== "billing") throw new Error("bench session routes wrongly");
  // All six measured in the same interleaved rounds, so machine noise hits each alike.
  const times = timePerCall(
    sessions.map((s) => () => findAgentToRun(s, root)),
    { rounds: 31, budgetMs: 30 },
  );
  const at = (i: number) => times[i] ?? Number.NaN;
  console.log("\nRouting (findAgentToRun), cost relative to a 10-event session, measured side by side:");
  console.log("  events    decision near the end    decision at the start");
  sizes.forEach((size, k) => {
    const end = ratio(at(2 * k), at(0)).padStart(12);
    const start = ratio(at(2 * k + 1), at(1)).padStart(12);
    console.log(`  ${String(size).padStart(7)}   ${end}             ${start}`);
  });
  console.log(
    `  target: a recent decision at 100,000 events costs ≈ 1× the 10-event one; measured ${ratio(at(4), at(0))}`,
  );
}
