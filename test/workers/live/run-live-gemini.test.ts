import { describe, expect, inject, it } from "vitest";
import * as z from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { google } from "../../../src/models/google-provider.js";
import { defineApp } from "../../../src/runner/app.js";
import { callWorker, freshIds, sessionsOf } from "../support/http.js";
import { openLive } from "./live-socket.js";

const text = (e: Event) => (e.content?.parts ?? []).map((p) => p.text ?? "").join("");
const turnDone = (e: Event) => e.turnComplete === true;

const getWeather = functionTool({
  name: "get_weather",
  description: "The weather in a city.",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, sky: "clear" }),
});

/** The fake Gemini Live server's scripts are chosen by model name (test/support/fake-gemini-live.ts). */
const app = (script: string) =>
  defineApp({
    name: `gemini-${script}`,
    rootAgent: new LlmAgent({ name: "root", model: `google:${script}`, tools: [getWeather] }),
  });

const worker = () =>
  callWorker(
    { apps: [app("text"), app("tools"), app("resume"), app("crash"), app("refuse")], models: [google()] },
    {
      GOOGLE_GENERATIVE_AI_API_KEY: "fake-gemini-key",
      GOOGLE_GENERATIVE_AI_BASE_URL: inject("fakeGeminiLiveOrigin"),
    },
  );

async function liveOn(script: string, query = "modalities=TEXT") {
  const call = worker();
  const { user, session } = freshIds("gl");
  await sessionsOf(call, `gemini-${script}`, user).create({ sessionId: session });
  const live = await openLive(
    call,
    `app_name=gemini-${script}&user_id=${user}&session_id=${session}&${query}`,
  );
  return { live, events: () => sessionsOf(call, `gemini-${script}`, user).eventsOf(session) };
}

describe("/run_live with google(): Gemini Live (the fake server)", () => {
  it("sends the user's text to Gemini and answers its pieces, the whole text and turnComplete", async () => {
    const { live, events } = await liveOn("text");
    live.send({ content: { role: "user", parts: [{ text: "hi" }] } });
    const answered = await live.until(turnDone);
    expect(answered.filter((e) => !e.partial && text(e) !== "").map(text)).toEqual(["Hello"]);
    live.close();
    expect((await events()).map((e) => [e.author, text(e)])).toEqual([
      ["user", "hi"],
      ["root", "Hello"],
    ]);
  });

  it("runs the tool Gemini calls and answers Gemini with its response, under Gemini's call id", async () => {
    const { live } = await liveOn("tools");
    live.send({ content: { role: "user", parts: [{ text: "weather in Paris?" }] } });
    const answered = await live.until(
      (e) => turnDone(e) && live.seen.some((s) => text(s).startsWith("Weather:")),
    );
    const response = answered.find((e) => e.content?.parts?.[0]?.functionResponse);
    expect(response?.content?.parts?.[0]?.functionResponse).toMatchObject({
      id: "call-7",
      name: "get_weather",
      response: { city: "Paris", sky: "clear" },
    });
    expect(answered.some((e) => text(e) === 'Weather: {"city":"Paris","sky":"clear"}')).toBe(true);
    live.close();
  });

  it("resumes a model session that goes away with its last resumption handle, and the call goes on", async () => {
    const { live } = await liveOn("resume", "modalities=TEXT&enable_session_resumption=true");
    live.send({ content: { role: "user", parts: [{ text: "first" }] } });
    await live.until((e) => text(e) === "first" && !e.partial);
    // The fake drops its socket after `goAway`; the call reconnects with the handle before this is read.
    await new Promise((resolve) => setTimeout(resolve, 300));
    live.send({ content: { role: "user", parts: [{ text: "again" }] } });
    const resumed = await live.until((e) => text(e).startsWith("resumed from"));
    expect(text(resumed.at(-1) as Event)).toBe("resumed from resume-handle-1");
    live.close();
  });

  it("answers a model session that fails as one error event, stored, and closes with 1011", async () => {
    const { live, events } = await liveOn("crash");
    live.send({ content: { role: "user", parts: [{ text: "tell me" }] } });
    expect((await live.closed).code).toBe(1011);
    const errors = live.seen.filter((e) => e.errorCode !== undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ author: "root", errorCode: "MODEL_UNAVAILABLE" });
    expect((await events()).filter((e) => e.errorCode !== undefined)).toHaveLength(1);
  });

  it("answers a model Gemini refuses as MODEL_NOT_FOUND before anything else, and closes with 1011", async () => {
    const { live } = await liveOn("refuse");
    const closed = await live.closed;
    expect(closed.code).toBe(1011);
    expect(closed.reason).toMatch(/^MODEL_NOT_FOUND: /);
    expect(live.seen.map((e) => e.errorCode)).toEqual(["MODEL_NOT_FOUND"]);
  });
});
