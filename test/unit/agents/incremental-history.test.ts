import { describe, expect, it } from "vitest";
import { buildContents, editableContents, type HistoryOptions } from "../../../src/agents/history.js";
import type { Content, Part } from "../../../src/core/content.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { frozenWithMemo } from "../../../src/core/memo.js";
import { toPrompt } from "../../../src/models/convert.js";

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = ["root", "billing", "faq"];
const BRANCHES = [undefined, undefined, undefined, "root.billing", "root.faq"];

/**
 * A session that grows as real ones do, and now and then as few do: texts by the user and three agents,
 * tool calls answered at once or late (long-running), id-less calls, several calls in one event, transfers,
 * branches, thoughts and empty events, and an occasional rewind.
 */
function* growingSession(seed: number, length: number): Generator<Event> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let n = 0;
  let clock = 1_767_225_600_000;
  const env = {
    ids: { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}` },
    clock: { now: () => clock },
  };
  const pending: { id: string; name: string }[] = [];
  const invocations: string[] = [];
  let invocation = "e-0";
  const make = (author: string, content: Content | undefined, extra: Partial<Event> = {}): Event => {
    clock += 1_000;
    const branch = author === "user" ? undefined : pick(BRANCHES);
    return {
      ...createEvent(
        { invocationId: invocation, author, ...(content ? { content } : {}), ...(branch ? { branch } : {}) },
        env,
      ),
      ...extra,
    };
  };
  for (let i = 0; i < length; i++) {
    const roll = next();
    const agent = pick(AGENTS);
    if (roll < 0.2) {
      invocation = `e-${i}`;
      invocations.push(invocation);
      yield make("user", { role: "user", parts: [{ text: `user ${i}` }] });
    } else if (roll < 0.45) {
      const parts: Part[] = [{ text: `${agent} says ${i}` }];
      if (next() < 0.1) parts.unshift({ text: "thinking", thought: true });
      yield make(agent, { role: "model", parts });
    } else if (roll < 0.6) {
      const count = next() < 0.2 ? 2 : 1;
      const calls = Array.from({ length: count }, (_, k) => ({
        id: next() < 0.1 ? undefined : `adk-${i}-${k}`,
        name: pick(["lookup", "approve", "transfer_to_agent"]),
      }));
      yield make(agent, {
        role: "model",
        parts: calls.map((c) => ({
          functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: { i } },
        })),
      });
      const answered = calls.filter(() => next() < 0.7);
      for (const c of calls) if (!answered.includes(c) && c.id) pending.push({ id: c.id, name: c.name });
      if (answered.length > 0)
        yield make(
          agent,
          {
            role: "user",
            parts: answered.map((c) => ({
              functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: { ok: i } },
            })),
          },
          next() < 0.3
            ? {
                actions: {
                  ...createEvent({ invocationId: "x", author: "x" }, env).actions,
                  transferToAgent: pick(AGENTS),
                },
              }
            : {},
        );
    } else if (roll < 0.7 && pending.length > 0) {
      const late = pending.splice(Math.floor(next() * pending.length), 1)[0];
      if (late)
        yield make("user", {
          role: "user",
          parts: [{ functionResponse: { id: late.id, name: late.name, response: { status: "done" } } }],
        });
    } else if (roll < 0.75) {
      yield make(agent, undefined, { errorCode: "MODEL_UNAVAILABLE", errorMessage: "503" });
    } else if (roll < 0.77 && invocations.length > 1) {
      yield make("user", undefined, {
        actions: {
          ...createEvent({ invocationId: "x", author: "x" }, env).actions,
          rewindBeforeInvocationId: pick(invocations),
        },
      });
    } else {
      yield make(agent, { role: "model", parts: [{ text: `${agent} adds ${i}` }] });
    }
  }
}

const OPTIONS: readonly (HistoryOptions & { agent: string })[] = [
  { agent: "root", includeContents: "default" },
  { agent: "billing", includeContents: "default", branch: "root.billing" },
  { agent: "faq", includeContents: "default" },
  { agent: "billing", includeContents: "none" },
];

describe("a history kept across requests", () => {
  it("gives, after every appended event, what a whole pass over the same events gives", () => {
    let compared = 0;
    let expected = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const stored: Event[] = [];
      // Plain copies have no memo slot, so they are always built whole.
      const plain: Event[] = [];
      for (const event of growingSession(seed, 100)) {
        stored.push(frozenWithMemo(event));
        expected += OPTIONS.length;
        plain.push(structuredClone(event));
        for (const { agent, ...options } of OPTIONS) {
          const kept = buildContents(stored, agent, options);
          const whole = buildContents(plain, agent, options);
          expect(kept, `seed ${seed}, ${stored.length} events, ${agent}`).toEqual(whole);
          expect(toPrompt("sys", kept), `prompt: seed ${seed}, ${stored.length} events, ${agent}`).toEqual(
            toPrompt("sys", whole),
          );
          compared += 1;
        }
      }
    }
    expect(compared).toBe(expected);
    expect(compared).toBeGreaterThan(12 * 100 * OPTIONS.length);
  }, 60_000);

  it("reads only the new events: a log whose middle changed behind an unchanged first and last event is not read again", () => {
    // White-box, so that the comparison above is not two whole passes: the kept history trusts the append-only log.
    const stored = [...growingSession(5, 40)].map((e) => frozenWithMemo(e));
    const before = buildContents(stored, "root", { includeContents: "default" });
    const tampered = stored.slice();
    tampered[3] = frozenWithMemo(
      createEvent(
        { invocationId: "e-x", author: "user", content: { role: "user", parts: [{ text: "not read" }] } },
        {
          ids: { uuid: () => "00000000-0000-4000-8000-999999999999" },
          clock: { now: () => 1 },
        },
      ),
    );
    expect(buildContents(tampered, "root", { includeContents: "default" })).toEqual(before);
    expect(buildContents(structuredClone(tampered), "root", { includeContents: "default" })).not.toEqual(
      before,
    );
  });

  it("hands each request its own frozen array; a request that must change it takes an editable copy", () => {
    const env = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => 1_767_225_600_000 } };
    const said = (author: string, text: string) =>
      frozenWithMemo(
        createEvent(
          {
            invocationId: "e-1",
            author,
            content: { role: author === "user" ? "user" : "model", parts: [{ text }] },
          },
          env,
        ),
      );
    const stored = [said("user", "hi"), said("root", "hello"), said("user", "and?")];
    const first = buildContents(stored, "root", { includeContents: "default" });
    expect(Object.isFrozen(first)).toBe(true);
    const editable = editableContents(first);
    editable.push({ role: "user", parts: [{ text: "added by a callback" }] });
    expect(toPrompt("", editable)).toHaveLength(toPrompt("", first).length + 1);
    const second = buildContents(stored, "root", { includeContents: "default" });
    expect(second).toEqual(first);
  });

  it("reads the whole log again when an event it kept is not where it was (another log behind the same first event)", () => {
    const stored = [...growingSession(11, 40)].map((e) => frozenWithMemo(e));
    buildContents(stored, "root", { includeContents: "default" });
    const changed = [...stored.slice(0, 20), ...[...growingSession(12, 25)].map((e) => frozenWithMemo(e))];
    expect(buildContents(changed, "root", { includeContents: "default" })).toEqual(
      buildContents(structuredClone(changed), "root", { includeContents: "default" }),
    );
  });
});
