/**
 * The in-process bench's apps: a two-agent tree whose root transfers once and whose specialist then
 * answers every turn, on zero-latency models, served by the real `Runner` over one in-memory store.
 */
import { LlmAgent } from "../../src/agents/llm-agent.js";
import { userText } from "../../src/core/content.js";
import type { Event } from "../../src/core/event.js";
import { type App, defineApp } from "../../src/runner/app.js";
import { Runner } from "../../src/services/defaults.js";
import { InMemorySessionStore } from "../../src/session/in-memory-store.js";
import { answeringModel, transferringModel } from "./zero-model.js";

export const HISTORY_BOUND = 50;
export const USER_ID = "bench-user";

function tree() {
  const specialist = new LlmAgent({
    name: "specialist",
    description: "Answers every question",
    model: answeringModel(),
  });
  return new LlmAgent({ name: "root", model: transferringModel("specialist"), subAgents: [specialist] });
}

export interface BenchApps {
  store: InMemorySessionStore;
  bounded: Runner;
  unbounded: Runner;
}

/**
 * One store, two apps over the same tree shape: history bounded to 50 events, and ADK's full history.
 * The store keeps traces, so every turn records and stores its trace, as a Worker's do (decision 041).
 */
export function benchApps(): BenchApps {
  const store = new InMemorySessionStore({ traces: true });
  const app = (name: string, bound?: number): App =>
    defineApp({ name, rootAgent: tree(), ...(bound === undefined ? {} : { maxHistoryEvents: bound }) });
  return {
    store,
    bounded: new Runner({ app: app("bounded", HISTORY_BOUND), sessionStore: store }),
    unbounded: new Runner({ app: app("unbounded"), sessionStore: store }),
  };
}

let turnNo = 0;

/** Runs one turn to its end; returns its wall time in microseconds. */
export async function timedTurn(runner: Runner, sessionId: string): Promise<number> {
  const newMessage = userText(`Question ${++turnNo}: what is the status of my order?`);
  const t0 = process.hrtime.bigint();
  for await (const _ of runner.run({ userId: USER_ID, sessionId, newMessage }));
  return Number(process.hrtime.bigint() - t0) / 1_000;
}

/**
 * A conversation of at least `size` events made by real turns (the first transfers, the rest are the
 * specialist's), cut to exactly `size`, ending on the specialist's answer when `size` is even.
 */
export async function conversation(apps: BenchApps, size: number): Promise<readonly Event[]> {
  const key = { appName: apps.bounded.app.name, userId: USER_ID, sessionId: `template-${size}` };
  await apps.store.createSession(key);
  // The first turn stores 4 events (user, transfer call, transfer response, answer), later ones 2.
  const turns = 1 + Math.max(0, Math.ceil((size - 4) / 2));
  for (let i = 0; i < turns; i++) await timedTurn(apps.bounded, key.sessionId);
  const events = (await apps.store.getSession(key))?.events ?? [];
  if (events.length < size) throw new Error(`the template has ${events.length} events, not ${size}`);
  await apps.store.deleteSession(key);
  return events.slice(0, size);
}
