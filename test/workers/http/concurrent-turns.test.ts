import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { helloApp } from "../support/apps.js";
import { fakeModelServer } from "../support/fake-model.js";
import { callWorker, expectJson, freshIds, noSleep, runBody, sessionsOf } from "../support/http.js";

const services = { sleep: noSleep };

/** The positions of each invocation's events in the log. */
function positionsByInvocation(events: readonly Event[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  events.forEach((event, i) => {
    positions.set(event.invocationId, [...(positions.get(event.invocationId) ?? []), i]);
  });
  return positions;
}

describe("concurrent turns on one session over HTTP", () => {
  it("runs one of 20 parallel /run calls and answers the others 409 session_busy, with no interleaving", async () => {
    const fake = fakeModelServer();
    const { app, user, session } = freshIds("busy");
    // 150 ms per model answer, so the turns overlap.
    const call = callWorker(
      { apps: [helloApp(app)], services },
      { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl({ delayMs: 150 }) },
    );
    const sessions = sessionsOf(call, app, user);
    await sessions.create({ sessionId: session });

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call("/run", { method: "POST", json: runBody(app, user, session, `m${i}`) }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const busy = responses.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(busy).toHaveLength(19);
    for (const res of busy) {
      expect(await res.json()).toEqual({ detail: expect.stringContaining(session), code: "session_busy" });
    }
    const answered = (await Promise.all(ok.map((r) => expectJson<Event[]>(r, 200)))).flat();
    expect((await fake.calls()).maxInFlight).toBe(1);

    const stored = await sessions.eventsOf(session);
    for (const positions of positionsByInvocation(stored).values()) {
      expect(positions).toEqual(Array.from({ length: positions.length }, (_, k) => (positions[0] ?? 0) + k));
    }
    expect(stored.filter((e) => e.author === "user")).toHaveLength(ok.length);
    expect(stored.filter((e) => e.author !== "user")).toEqual(answered);
  });
});
