import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { callEntry, expectJson, freshIds, runBody, sessionsOf, sseEvents } from "../support/http.js";

const summary = (events: readonly Event[]) =>
  events.map((e) => {
    const part = e.content?.parts?.[0];
    return [
      e.author,
      part?.functionCall?.name ?? part?.functionResponse?.name ?? (part?.text ? "text" : "-"),
    ];
  });

describe("the demo Worker entry (src/worker.ts)", () => {
  it("is configured with API_TOKENS and without ALLOW_UNAUTHENTICATED (wrangler.toml sets no such var)", () => {
    expect(env.ALLOW_UNAUTHENTICATED).toBeUndefined();
    expect(env.API_TOKENS).toBeTruthy();
  });

  it("serves /health to anyone and everything else only with a configured bearer token", async () => {
    const call = callEntry();
    expect(await expectJson(call("/health", { token: null }), 200)).toEqual({ status: "ok" });
    expect(await expectJson(call("/list-apps", { token: null }), 401)).toMatchObject({
      code: "unauthorized",
    });
    expect(await expectJson(call("/list-apps", { token: "not-the-token" }), 401)).toMatchObject({
      code: "unauthorized",
    });
    expect(await expectJson(call("/list-apps"), 200)).toEqual(["demo", "workflow"]);
    expect(await expectJson(call("/version"), 200)).toMatchObject({ language: "typescript" });
  });

  it("routes a weather question from the concierge to weather, which calls get_forecast and answers; the follow-up stays with weather", async () => {
    const call = callEntry();
    const { user, session } = freshIds();
    const sessions = sessionsOf(call, "demo", user);
    await sessions.create({ sessionId: session });

    const question = runBody("demo", user, session, "What is the weather in Paris?");
    const first = await expectJson<Event[]>(call("/run", { method: "POST", json: question }), 200);
    expect(summary(first)).toEqual([
      ["concierge", "transfer_to_agent"],
      ["concierge", "transfer_to_agent"],
      ["weather", "get_forecast"],
      ["weather", "get_forecast"],
      ["weather", "text"],
    ]);
    expect(first[1]?.actions.transferToAgent).toBe("weather");
    expect(first[2]?.content?.parts?.[0]?.functionCall?.args).toEqual({ city: "Paris" });
    const forecast = first[3]?.content?.parts?.[0]?.functionResponse?.response;
    expect(forecast).toMatchObject({
      city: "Paris",
      forecast: expect.any(String),
      highCelsius: expect.any(Number),
    });
    expect(first[4]?.content?.parts?.[0]?.text).toContain(`forecast: ${String(forecast?.forecast)}`);

    const followUp = runBody("demo", user, session, "And will it rain there tomorrow?", { streaming: true });
    const second = await sseEvents(await call("/run_sse", { method: "POST", json: followUp }));
    expect(second.some((e) => e.partial)).toBe(true);
    expect(new Set(second.map((e) => e.author))).toEqual(new Set(["weather"]));
    const answer = second.filter((e) => !e.partial);
    expect(summary(answer)).toEqual([["weather", "text"]]);

    const stored = await sessions.get(session);
    expect(summary(stored.events)).toEqual([
      ["user", "text"],
      ...summary(first),
      ["user", "text"],
      ...summary(answer),
    ]);
    expect(stored.events.slice(1, 6)).toEqual(first);
    expect(stored.events.at(-1)).toEqual(answer[0]);
    expect(stored.state.last_forecast).toBe(answer[0]?.content?.parts?.[0]?.text);
  });
});
