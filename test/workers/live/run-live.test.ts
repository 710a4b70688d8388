import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { defineApp } from "../../../src/runner/app.js";
import {
  type Call,
  callEntry,
  callWorker,
  expectJson,
  freshIds,
  runBody,
  sessionsOf,
} from "../support/http.js";
import { type LiveSocket, openLive } from "./live-socket.js";

const entry = callEntry();
const text = (e: Event) => (e.content?.parts ?? []).map((p) => p.text ?? "").join("");
const calls = (e: Event) => (e.content?.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
const turnDone = (e: Event) => e.turnComplete === true;

/** A demo session and a live socket on it. */
async function demoCall(
  query = "modalities=TEXT",
): Promise<{ live: LiveSocket; user: string; session: string }> {
  const { user, session } = freshIds("live");
  await sessionsOf(entry, "demo", user).create({ sessionId: session });
  const live = await openLive(entry, `app_name=demo&user_id=${user}&session_id=${session}&${query}`);
  return { live, user, session };
}

describe("/run_live with the demo live model", () => {
  it("answers a text message with partial pieces, the whole text and turnComplete; stores only the whole events", async () => {
    const { live, user, session } = await demoCall();
    live.send({ content: { role: "user", parts: [{ text: "hello there" }] } });
    const events = await live.until(turnDone);
    const partial = events.filter((e) => e.partial);
    const whole = events.filter((e) => !e.partial && text(e) !== "");
    expect(partial.length).toBeGreaterThan(0);
    expect(whole).toHaveLength(1);
    expect(whole[0]?.author).toBe("concierge");
    expect(partial.map(text).join("")).toBe(text(whole[0] as Event));
    expect(text(whole[0] as Event)).toContain('You asked: "hello there"');
    live.close();
    const stored = await sessionsOf(entry, "demo", user).eventsOf(session);
    expect(stored.map((e) => [e.author, text(e)])).toEqual([
      ["user", "hello there"],
      ["concierge", text(whole[0] as Event)],
    ]);
    expect(stored.every((e) => !e.partial && e.invocationId === whole[0]?.invocationId)).toBe(true);
  });

  it("keeps transfer_to_agent: the target answers in the call, the transfer is stored, the next /run goes to the target", async () => {
    const { live, user, session } = await demoCall();
    live.send({ content: { role: "user", parts: [{ text: "I need a refund on my invoice payment" }] } });
    const events = await live.until((e) => turnDone(e) && e.author === "billing");
    const transfer = events.find((e) => calls(e)[0]?.name === "transfer_to_agent");
    expect(transfer?.author).toBe("concierge");
    expect(calls(transfer as Event)[0]?.args).toEqual({ agent_name: "billing" });
    expect(events.find((e) => e.actions?.transferToAgent === "billing")?.author).toBe("concierge");
    const answer = events.find((e) => e.author === "billing" && !e.partial && text(e) !== "");
    expect(text(answer as Event)).toContain("I am billing");
    live.close();
    const run = await expectJson<Event[]>(
      entry("/run", { method: "POST", json: runBody("demo", user, session, "and another thing") }),
      200,
    );
    expect(run.filter((e) => text(e) !== "").map((e) => e.author)).toEqual(["billing"]);
  });

  it("runs a function tool in the call and sends its response to the model, which answers with it", async () => {
    const { live, user, session } = await demoCall();
    live.send({ content: { role: "user", parts: [{ text: "what is the weather forecast in Lisbon" }] } });
    const events = await live.until(
      (e) =>
        turnDone(e) &&
        e.author === "weather" &&
        live.seen.some((s) => text(s).includes("get_forecast returned")),
    );
    const call = events.find((e) => calls(e)[0]?.name === "get_forecast");
    expect(call?.author).toBe("weather");
    const response = events.find((e) => e.content?.parts?.[0]?.functionResponse?.name === "get_forecast");
    expect(response?.content?.parts?.[0]?.functionResponse?.id).toBe(calls(call as Event)[0]?.id);
    live.close();
    const stored = await sessionsOf(entry, "demo", user).eventsOf(session);
    expect(stored.some((e) => e.content?.parts?.[0]?.functionResponse?.name === "get_forecast")).toBe(true);
    expect(stored.some((e) => text(e).includes("get_forecast returned"))).toBe(true);
  });

  it("speaks with AUDIO: the caller's audio heard, tones and an output transcript sent; transcripts stored as text, audio not", async () => {
    const { live, user, session } = await demoCall("modalities=AUDIO");
    const second = btoa(String.fromCharCode(...new Uint8Array(32_000)));
    live.send({ blob: { mime_type: "audio/pcm;rate=16000", data: second } });
    live.send({ blob: { mime_type: "audio/pcm;rate=16000", data: second } });
    const events = await live.until(turnDone);
    const heard = events.find((e) => e.inputTranscription?.finished);
    expect(heard?.author).toBe("user");
    expect(heard?.inputTranscription?.text).toBe("(2.0 s of audio)");
    const audio = events.filter(
      (e) => e.content?.parts?.[0]?.inlineData?.mimeType === "audio/pcm;rate=24000",
    );
    expect(audio.length).toBeGreaterThan(0);
    const said = events.find((e) => e.outputTranscription?.finished);
    expect(said?.outputTranscription?.text).toContain("(2.0 s of audio)");
    live.close();
    const stored = await sessionsOf(entry, "demo", user).eventsOf(session);
    expect(stored.map((e) => [e.author, text(e)])).toEqual([
      ["user", "(2.0 s of audio)"],
      ["concierge", said?.outputTranscription?.text],
    ]);
    expect(stored.some((e) => e.content?.parts?.some((p) => p.inlineData))).toBe(false);
  });

  it("gives the session to a newer connection: the older socket closes with 4001", async () => {
    const { live, user, session } = await demoCall();
    const newer = await openLive(
      entry,
      `app_name=demo&user_id=${user}&session_id=${session}&modalities=TEXT`,
    );
    expect((await live.closed).code).toBe(4001);
    newer.send({ content: { role: "user", parts: [{ text: "still there?" }] } });
    expect((await newer.until(turnDone)).some((e) => text(e).includes("still there?"))).toBe(true);
    newer.close();
  });

  it("closes with 1003 for a message that is not a LiveRequest and 1000 for close", async () => {
    const bad = await demoCall();
    bad.live.sendRaw("not json");
    expect(await bad.live.closed).toMatchObject({ code: 1003, reason: "A live request must be JSON." });
    const done = await demoCall();
    done.live.send({ close: true });
    expect((await done.live.closed).code).toBe(1000);
  });

  it("closes with 1009 for a message past LIVE_MAX_MESSAGE_BYTES, and 4008 after LIVE_IDLE_TIMEOUT_MS", async () => {
    const call = callWorker(
      { apps: [defineApp({ name: "tiny", rootAgent: new LlmAgent({ name: "root", model: "demo:" }) })] },
      { LIVE_MAX_MESSAGE_BYTES: "1000", LIVE_IDLE_TIMEOUT_MS: "300" },
    );
    const big = await workerCall(call, "tiny");
    big.send({ content: { role: "user", parts: [{ text: "x".repeat(2_000) }] } });
    expect((await big.closed).code).toBe(1009);
    const idle = await workerCall(call, "tiny");
    expect(await idle.closed).toMatchObject({ code: 4008, reason: "No message for 0.3 s." });
  });

  it("answers a model error as an error event, stored, and closes with 1011", async () => {
    const call = callWorker({
      apps: [
        defineApp({
          name: "nolive",
          rootAgent: new LlmAgent({ name: "root", model: "openai-compatible:m" }),
        }),
      ],
    });
    const live = await workerCall(call, "nolive");
    const closed = await live.closed;
    expect(closed.code).toBe(1011);
    const error = live.seen.find((e) => e.errorCode !== undefined);
    expect(error).toMatchObject({ author: "root", errorCode: "MODEL_CONFIG" });
    expect(error?.errorMessage).toContain('Model provider "openai-compatible" has no live models');
  });
});

describe("/run_live refusals, before the upgrade", () => {
  it("answers 426 without an upgrade, 404 for an unknown app or session, 400 for a bad modality, 401 without a token", async () => {
    const { user, session } = freshIds("live");
    await sessionsOf(entry, "demo", user).create({ sessionId: session });
    const ws = { headers: { upgrade: "websocket" } };
    const q = `user_id=${user}&session_id=${session}`;
    expect((await entry(`/run_live?app_name=demo&${q}`)).status).toBe(426);
    expect((await entry(`/run_live?app_name=nope&${q}`, ws)).status).toBe(404);
    expect((await entry(`/run_live?app_name=demo&user_id=${user}&session_id=missing`, ws)).status).toBe(404);
    expect((await entry(`/run_live?app_name=demo&${q}&modalities=SMELL`, ws)).status).toBe(400);
    expect((await entry(`/run_live?app_name=demo&${q}`, { ...ws, token: null })).status).toBe(401);
    expect((await entry(`/run_live?app_name=demo&user_id=${user}`, ws)).status).toBe(400);
  });
});

/** A live socket to a `callWorker` Worker's app, on a new session. */
async function workerCall(call: Call, app: string): Promise<LiveSocket> {
  const { user, session } = freshIds("live");
  await sessionsOf(call, app, user).create({ sessionId: session });
  return openLive(call, `app_name=${app}&user_id=${user}&session_id=${session}&modalities=TEXT`);
}
