// The Gemini Live model's cases against test/support/fake-gemini-live.ts, run in workerd
// (test/workers/live) and in Node 20 (test/unit/live). No Node imports: workerd loads this file.
import { expect, it } from "vitest";
import { BatonError } from "../../src/core/errors.js";
import type { LiveConnection, LiveConnectRequest, LiveResponse } from "../../src/core/live-model.js";
import { type GeminiLiveOptions, geminiLiveModel } from "../../src/live/gemini/gemini-live-model.js";

/** Mirrors of fake-gemini-live.ts's constants (that file is Node only). */
const FAKE_GEMINI_KEY = "fake-gemini-key";
const RESUME_HANDLE = "resume-handle-1";

export interface FakeTarget {
  origin: string;
  fetch?: typeof fetch;
}

const request = (overrides: Partial<LiveConnectRequest> = {}): LiveConnectRequest => ({
  systemInstruction: "",
  tools: [],
  config: {},
  responseModalities: ["TEXT"],
  ...overrides,
});

/** Reads answers until one matches `last` (included) or the session ends. */
async function readUntil(
  connection: LiveConnection,
  last: (r: LiveResponse) => boolean,
): Promise<LiveResponse[]> {
  const seen: LiveResponse[] = [];
  for await (const response of connection.receive()) {
    seen.push(response);
    if (last(response)) break;
  }
  return seen;
}

const turn = (connection: LiveConnection) => readUntil(connection, (r) => r.turnComplete === true);
/** The whole (not partial) text answers of a turn. */
const wholeText = (responses: LiveResponse[]) =>
  responses
    .filter((r) => !r.partial && r.content?.parts?.[0]?.text !== undefined)
    .map((r) => r.content?.parts?.[0]?.text);
/** The `echo` script answers each client message with its JSON. */
const echoed = async (connection: LiveConnection): Promise<Record<string, unknown>> =>
  JSON.parse(wholeText(await turn(connection))[0] ?? "null");

async function rejection(promise: Promise<unknown>): Promise<BatonError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BatonError)) throw new Error(`expected a BatonError, got ${String(error)}`);
  return error;
}

export function geminiLiveCases(target: () => FakeTarget): void {
  const model = (script: string, extra: Partial<GeminiLiveOptions> = {}) => {
    const { origin, fetch } = target();
    return geminiLiveModel(script, { apiKey: FAKE_GEMINI_KEY, baseUrl: origin, fetch, ...extra });
  };

  it("sends the setup Gemini expects, tools as JSON Schema, and waits for setupComplete", async () => {
    const connection = await model("echo", { manualActivityDetection: true }).connect(
      request({
        systemInstruction: "Be brief.",
        responseModalities: ["AUDIO"],
        config: { temperature: 0.2, topK: 5, maxOutputTokens: 64 },
        tools: [
          {
            name: "get_weather",
            description: "The weather in a city.",
            parameters: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              properties: { city: { type: ["string", "null"] } },
              required: ["city"],
            },
          },
          { name: "exit_loop", description: "Stops the loop." },
        ],
        voiceName: "Puck",
        sessionResumption: true,
        inputTranscription: true,
        outputTranscription: true,
        proactiveAudio: true,
        affectiveDialog: true,
      }),
    );
    expect(await echoed(connection)).toEqual({
      setup: {
        model: "models/echo",
        generationConfig: {
          responseModalities: ["AUDIO"],
          temperature: 0.2,
          topK: 5,
          maxOutputTokens: 64,
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Puck" } } },
          enableAffectiveDialog: true,
        },
        systemInstruction: { parts: [{ text: "Be brief." }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: "get_weather",
                description: "The weather in a city.",
                parametersJsonSchema: {
                  type: "object",
                  properties: { city: { type: ["string", "null"] } },
                  required: ["city"],
                },
              },
              { name: "exit_loop", description: "Stops the loop." },
            ],
          },
        ],
        sessionResumption: {},
        inputAudioTranscription: {},
        outputAudioTranscription: {},
        proactivity: { proactiveAudio: true },
        realtimeInputConfig: { automaticActivityDetection: { disabled: true } },
      },
    });
    await connection.close();
  });

  it("replays the history's text as clientContent, completing the turn only when the user spoke last", async () => {
    const connection = await model("echo").connect(request());
    await turn(connection); // the setup's echo
    await connection.sendHistory([
      { role: "user", parts: [{ text: "Hi" }] },
      { role: "model", parts: [{ text: "thinking", thought: true }, { text: "Hello" }] },
      { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} } }] },
    ]);
    expect(await echoed(connection)).toEqual({
      clientContent: {
        turns: [
          { role: "user", parts: [{ text: "Hi" }] },
          { role: "model", parts: [{ text: "Hello" }] },
        ],
        turnComplete: false,
      },
    });
    await connection.sendHistory([{ role: "user", parts: [{ text: "Again" }] }]);
    expect(await echoed(connection)).toMatchObject({ clientContent: { turnComplete: true } });
    await connection.close();
  });

  it("sends a Gemini 3 Flash Live model user text as realtimeInput.text and always completes the history", async () => {
    const connection = await model("gemini-3.1-flash-live-preview").connect(request());
    await turn(connection);
    await connection.sendHistory([{ role: "model", parts: [{ text: "Hello" }] }]);
    expect(await echoed(connection)).toEqual({
      clientContent: { turns: [{ role: "model", parts: [{ text: "Hello" }] }], turnComplete: true },
    });
    await connection.sendContent({ role: "user", parts: [{ text: "Hi" }] });
    expect(await echoed(connection)).toEqual({ realtimeInput: { text: "Hi" } });
    await connection.sendContent({
      role: "user",
      parts: [{ text: "Look:" }, { inlineData: { mimeType: "image/png", data: "iVBO" } }],
    });
    expect(await echoed(connection)).toMatchObject({ clientContent: { turnComplete: true } });
    await connection.close();
  });

  it("sends audio and video as realtimeInput, activity marks, and refuses other real-time types", async () => {
    const connection = await model("echo").connect(request());
    await turn(connection);
    await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC", displayName: "x" });
    expect(await echoed(connection)).toEqual({
      realtimeInput: { audio: { mimeType: "audio/pcm;rate=16000", data: "AAEC" } },
    });
    await connection.sendRealtime({ mimeType: "image/jpeg", data: "/9j/" });
    expect(await echoed(connection)).toEqual({
      realtimeInput: { video: { mimeType: "image/jpeg", data: "/9j/" } },
    });
    await connection.sendActivityStart();
    expect(await echoed(connection)).toEqual({ realtimeInput: { activityStart: {} } });
    await connection.sendActivityEnd();
    expect(await echoed(connection)).toEqual({ realtimeInput: { activityEnd: {} } });
    const refused = await rejection(connection.sendRealtime({ mimeType: "text/plain", data: "aGk=" }));
    expect(refused.code).toBe("MODEL_BAD_REQUEST");
    await connection.close();
  });

  it("streams text in partial pieces, then the whole answer, usage and turnComplete (binary frames)", async () => {
    const connection = await model("text").connect(request());
    await connection.sendContent({ role: "user", parts: [{ text: "Say hello" }] });
    const responses = await turn(connection);
    expect(responses).toEqual([
      { content: { role: "model", parts: [{ text: "Hel" }] }, partial: true },
      { content: { role: "model", parts: [{ text: "lo" }] }, partial: true },
      { usageMetadata: { totalTokenCount: 7 } },
      { content: { role: "model", parts: [{ text: "Hello" }] } },
      { turnComplete: true },
    ]);
    await connection.close();
  });

  it("answers audio with inline data and transcripts, each utterance once more whole", async () => {
    // Gemini refuses activity marks while its own voice activity detection is on.
    const automatic = await model("audio").connect(request({ responseModalities: ["AUDIO"] }));
    await automatic.sendActivityStart();
    expect(await readUntil(automatic, () => false)).toEqual([
      expect.objectContaining({ errorCode: "MODEL_BAD_REQUEST" }),
    ]);
    const connection = await model("audio", { manualActivityDetection: true }).connect(
      request({ responseModalities: ["AUDIO"], inputTranscription: true, outputTranscription: true }),
    );
    await connection.sendActivityStart();
    await connection.sendRealtime({ mimeType: "audio/pcm;rate=16000", data: "AAEC" });
    await connection.sendActivityEnd();
    const responses = await turn(connection);
    const audio = { mimeType: "audio/pcm;rate=24000" };
    expect(responses).toEqual([
      { inputTranscription: { text: "How's", finished: false }, partial: true },
      { inputTranscription: { text: " it going?", finished: false }, partial: true },
      { inputTranscription: { text: "How's it going?", finished: true } },
      { content: { role: "model", parts: [{ inlineData: { ...audio, data: "AAAA" } }] } },
      { outputTranscription: { text: "All", finished: false }, partial: true },
      { content: { role: "model", parts: [{ inlineData: { ...audio, data: "BBBB" } }] } },
      { outputTranscription: { text: " good.", finished: false }, partial: true },
      { outputTranscription: { text: "All good.", finished: true } },
      { turnComplete: true },
    ]);
    await connection.close();
  });

  it("gives Gemini's tool calls with their ids and sends the responses back as toolResponse", async () => {
    const connection = await model("tools").connect(request());
    await connection.sendContent({ role: "user", parts: [{ text: "Weather in Paris?" }] });
    const [call] = await readUntil(connection, (r) => r.content !== undefined);
    expect(call).toEqual({
      content: {
        role: "model",
        parts: [{ functionCall: { id: "call-7", name: "get_weather", args: { city: "Paris" } } }],
      },
    });
    await connection.sendContent({
      role: "user",
      parts: [{ functionResponse: { id: "call-7", name: "get_weather", response: { sky: "sunny" } } }],
    });
    expect(wholeText(await turn(connection))).toEqual(['Weather: {"sky":"sunny"}']);
    await connection.close();
  });

  it("reports a cancelled tool call and an interruption", async () => {
    const cancelled = await model("cancel").connect(request());
    await cancelled.sendContent({ role: "user", parts: [{ text: "Look it up" }] });
    const responses = await readUntil(cancelled, (r) => r.customMetadata !== undefined);
    expect(responses.at(-1)).toEqual({ customMetadata: { toolCallCancellation: { ids: ["call-8"] } } });
    await cancelled.close();

    const interrupted = await model("interrupt").connect(request());
    await interrupted.sendContent({ role: "user", parts: [{ text: "Tell a story" }] });
    expect(await readUntil(interrupted, (r) => r.interrupted === true)).toEqual([
      { content: { role: "model", parts: [{ text: "Once upon a" }] }, partial: true },
      { content: { role: "model", parts: [{ text: "Once upon a" }] } },
      { interrupted: true },
    ]);
    await interrupted.close();
  });

  it("resumes after a goAway and a dropped socket with the handle Gemini gave", async () => {
    const first = await model("resume").connect(request({ sessionResumption: true }));
    await first.sendContent({ role: "user", parts: [{ text: "Hi" }] });
    const responses = await readUntil(first, () => false);
    const handle = responses.flatMap((r) => r.liveSessionResumptionUpdate?.newHandle ?? []).at(-1);
    expect(handle).toBe(RESUME_HANDLE);
    expect(responses.some((r) => r.goAway?.timeLeft === "0s")).toBe(true);
    // The drop (no close frame) ends the session with an error rather than a hang.
    expect(responses.at(-1)).toMatchObject({ errorCode: "MODEL_UNAVAILABLE" });
    expect((await rejection(first.sendContent({ parts: [{ text: "x" }] }))).code).toBe("MODEL_UNAVAILABLE");

    const second = await model("resume").connect(
      request({ sessionResumption: true, resumptionHandle: handle ?? "" }),
    );
    await second.sendContent({ role: "user", parts: [{ text: "Where were we?" }] });
    expect(wholeText(await turn(second))).toEqual([`resumed from ${RESUME_HANDLE}`]);
    await second.close();
  });

  it("rejects connect when Gemini refuses the key, the setup, the model or the path", async () => {
    expect((await rejection(model("echo", { apiKey: "wrong-key" }).connect(request()))).code).toBe(
      "MODEL_AUTH_FAILED",
    );
    const badSetup = await rejection(
      model("echo").connect(request({ responseModalities: ["TEXT", "AUDIO"] })),
    );
    expect(badSetup.code).toBe("MODEL_BAD_REQUEST");
    expect(badSetup.message).toContain("code 1007");
    expect((await rejection(model("refuse").connect(request()))).code).toBe("MODEL_NOT_FOUND");
    const stale = model("resume").connect(request({ resumptionHandle: "stale" }));
    expect((await rejection(stale)).code).toBe("MODEL_NOT_FOUND");
    const { origin, fetch } = target();
    const elsewhere = geminiLiveModel("echo", {
      apiKey: FAKE_GEMINI_KEY,
      baseUrl: `${origin}/elsewhere`,
      fetch,
    });
    const notFound = await rejection(elsewhere.connect(request()));
    expect([notFound.code, notFound.upstreamStatus]).toEqual(["MODEL_NOT_FOUND", 404]);
  });

  it("ends the session with an error response when Gemini closes it, and on a frame it cannot read", async () => {
    const crashed = await model("crash").connect(request());
    await crashed.sendContent({ role: "user", parts: [{ text: "Go" }] });
    expect(await readUntil(crashed, () => false)).toEqual([
      { content: { role: "model", parts: [{ text: "par" }] }, partial: true },
      { content: { role: "model", parts: [{ text: "par" }] } },
      {
        errorCode: "MODEL_UNAVAILABLE",
        errorMessage: "Gemini Live closed the session (code 1011): Internal error occurred.",
      },
    ]);
    const garbage = await model("garbage").connect(request());
    const [bad] = await readUntil(garbage, () => true);
    expect(bad?.errorCode).toBe("MODEL_ERROR");
    await garbage.close();
  });

  it("times out a setup that is never answered, and honours an abort before and after connecting", async () => {
    expect((await rejection(model("silent", { setupTimeoutMs: 300 }).connect(request()))).code).toBe(
      "MODEL_TIMEOUT",
    );
    const controller = new AbortController();
    const pending = model("silent").connect(request(), controller.signal);
    controller.abort(new BatonError("MODEL_TIMEOUT", "the caller left"));
    expect((await rejection(pending)).message).toBe("the caller left");

    const later = new AbortController();
    const connection = await model("echo").connect(request(), later.signal);
    await turn(connection);
    later.abort();
    expect(await readUntil(connection, () => false)).toEqual([]);
    expect((await rejection(connection.sendContent({ parts: [{ text: "x" }] }))).code).toBe(
      "MODEL_UNAVAILABLE",
    );
  });

  it("closes idempotently, ending receive()", async () => {
    const connection = await model("echo").connect(request());
    await turn(connection);
    await connection.close();
    await connection.close();
    expect(await readUntil(connection, () => false)).toEqual([]);
  });
}
