import type { Content } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import type { RunServices } from "../../../src/core/ports.js";
import type { Runner, RunRequest } from "../../../src/runner/runner.js";
import { aiSdkModelPort } from "../../../src/services/model-registry.js";

/** Collects every event of one run. */
export async function collect(runner: Runner, request: RunRequest): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run(request)) events.push(event);
  return events;
}

export const text = (t: string): Content => ({ role: "user", parts: [{ text: t }] });

/** Deterministic services: a manual clock, counting ids, and a sleep that only records and advances the clock. */
export function testServices(): RunServices & { slept: number[]; clockMs: { value: number } } {
  let n = 0;
  const clockMs = { value: 1_767_225_600_000 };
  const slept: number[] = [];
  return {
    clock: { now: () => clockMs.value },
    ids: {
      uuid: () => {
        n += 1;
        return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      },
    },
    sleep: async (ms) => {
      slept.push(ms);
      clockMs.value += ms;
    },
    random: () => 0.5,
    env: {},
    models: aiSdkModelPort(),
    fetch: () => Promise.reject(new Error("test services make no HTTP calls")),
    log: () => undefined,
    slept,
    clockMs,
  };
}

/** The first part's text of each event: what most assertions compare. */
export const texts = (events: readonly Event[]): (string | undefined)[] =>
  events.map((e) => e.content?.parts?.[0]?.text);
