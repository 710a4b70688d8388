import { describe, expect, it } from "vitest";
import type { ArtifactVersion } from "../../../src/core/artifacts.js";
import type { Event } from "../../../src/core/event.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { callEntry, expectJson, freshIds, runBody, sessionsOf, sseEvents } from "../support/http.js";

const responseOf = (e: Event) => e.content?.parts?.[0]?.functionResponse;

describe("a demo turn that saves an artifact", () => {
  it("streams the save as ADK does (content frame, then an artifactDelta-only frame) and stores one event", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const sessions = sessionsOf(call, "demo", user);
    await sessions.create({ sessionId: session });
    const body = runBody("demo", user, session, "Save a weather report for Paris", { streaming: false });
    const frames = await sseEvents(await call("/run_sse", { method: "POST", json: body }));
    const saved = frames.filter((e) =>
      e.content?.parts?.some((p) => p.functionResponse?.name === "save_report"),
    );
    expect(saved).toHaveLength(1);
    expect(responseOf(saved[0] as Event)?.response).toEqual({ saved: "weather-paris.svg", version: 0 });
    expect(saved[0]?.actions.artifactDelta).toEqual({});
    // The next frame is the same event without content, carrying the delta: what the dev UI renders.
    const next = frames[frames.indexOf(saved[0] as Event) + 1];
    expect(next).toMatchObject({ id: saved[0]?.id, actions: { artifactDelta: { "weather-paris.svg": 0 } } });
    expect(next?.content).toBeUndefined();

    const stored = (await sessions.get(session)).events.filter((e) => responseOf(e)?.name === "save_report");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.actions.artifactDelta).toEqual({ "weather-paris.svg": 0 });
    expect(stored[0]?.content?.parts).toEqual(saved[0]?.content?.parts);

    const base = `/apps/demo/users/${user}/sessions/${session}/artifacts`;
    expect(await expectJson(call(base), 200)).toEqual(["weather-paris.svg"]);
    const part = await expectJson<{ inlineData: { mimeType: string; data: string } }>(
      call(`${base}/weather-paris.svg/versions/0`),
      200,
    );
    expect(part.inlineData.mimeType).toBe("image/svg+xml");
    expect(
      new TextDecoder().decode(Uint8Array.from(atob(part.inlineData.data), (c) => c.charCodeAt(0))),
    ).toMatch(/^<svg[^>]*>[\s\S]*Paris[\s\S]*°C<\/text>\s*<\/svg>$/);
    const [meta] = await expectJson<ArtifactVersion[]>(
      call(`${base}/weather-paris.svg/versions/metadata`),
      200,
    );
    expect(meta?.customMetadata).toEqual({ city: "Paris" });
  });

  it("sends the event whole on SSE when the request names a functionCallEventId, and whole on /run", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    await sessionsOf(call, "demo", user).create({ sessionId: session });
    const body = runBody("demo", user, session, "Save a weather report for Lisbon");
    const events = await expectJson<Event[]>(call("/run", { method: "POST", json: body }), 200);
    const saved = events.find((e) => responseOf(e)?.name === "save_report");
    expect(saved?.actions.artifactDelta).toEqual({ "weather-lisbon.svg": 0 });
    const again = {
      ...body,
      functionCallEventId: "any",
      newMessage: { role: "user", parts: [{ text: "Save a weather report for Lisbon again" }] },
    };
    const frames = await sseEvents(await call("/run_sse", { method: "POST", json: again }));
    const whole = frames.find((e) => responseOf(e)?.name === "save_report");
    expect(whole?.actions.artifactDelta).toEqual({ "weather-lisbon.svg": 1 });
    expect(frames.filter((e) => e.id === whole?.id)).toHaveLength(1);
  });
});
