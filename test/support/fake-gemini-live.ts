// A fake Gemini Live server (BidiGenerateContent over a WebSocket) on 127.0.0.1 for the live model's
// tests. It checks the setup it gets and plays a script chosen by the model name (`models/<script>`).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { acceptKey, closePayload, encodeFrame, FrameReader, OPCODE } from "./ws-frames.js";

export const FAKE_GEMINI_KEY = "fake-gemini-key";
export const BIDI_PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
/** The handle the `resume` script gives, and the only one it resumes. */
export const RESUME_HANDLE = "resume-handle-1";

type Json = Record<string, unknown>;

const obj = (value: unknown): Json | undefined =>
  // SAFETY: a non-null, non-array object parsed from JSON has string keys.
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): Json[] =>
  Array.isArray(value)
    ? value.flatMap((v: unknown): Json[] => {
        const o = obj(v);
        return o ? [o] : [];
      })
    : [];

/** One accepted socket, server side: JSON out as text or binary frames, JSON in. */
class Peer {
  private closed = false;
  constructor(
    readonly socket: Socket,
    private readonly binary: boolean,
  ) {}

  send(message: Json): void {
    if (this.closed) return;
    const payload = Buffer.from(JSON.stringify(message));
    this.socket.write(encodeFrame(this.binary ? OPCODE.binary : OPCODE.text, payload, false));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.write(encodeFrame(OPCODE.close, closePayload(code, reason), false));
    this.socket.end();
  }

  /** A dropped connection: no close frame, the TCP socket just goes. */
  drop(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

const text = (t: string): Json => ({ serverContent: { modelTurn: { parts: [{ text: t }] } } });
const turnComplete: Json = { serverContent: { turnComplete: true } };

/** Why a setup is refused (Gemini closes with 1007 and a reason), or undefined when it is well formed. */
function setupProblem(setup: Json | undefined): string | undefined {
  if (!setup) return "the first message must be a setup";
  if (typeof setup.model !== "string" || !setup.model.startsWith("models/"))
    return "setup.model must be models/<id>";
  const config = obj(setup.generationConfig);
  const modalities = config?.responseModalities;
  if (
    !Array.isArray(modalities) ||
    modalities.length !== 1 ||
    !["TEXT", "AUDIO"].includes(String(modalities[0]))
  )
    return "generationConfig.responseModalities must be one of TEXT, AUDIO";
  for (const tool of list(setup.tools)) {
    for (const declaration of list(tool.functionDeclarations)) {
      if (typeof declaration.name !== "string") return "a function declaration needs a name";
      if (declaration.parameters && declaration.parametersJsonSchema)
        return "parameters and parametersJsonSchema are mutually exclusive";
    }
  }
  return undefined;
}

/** The script of one session, by model name; `message` is every client message after the setup. */
function play(script: string, setup: Json, peer: Peer, message: Json): void {
  const content = obj(message.clientContent);
  const realtime = obj(message.realtimeInput);
  const toolResponse = obj(message.toolResponse);
  const handle = obj(setup.sessionResumption)?.handle;
  switch (script) {
    case "echo":
      peer.send(text(JSON.stringify(message)));
      peer.send(turnComplete);
      return;
    case "text":
      if (!content?.turnComplete) return;
      peer.send(text("Hel"));
      peer.send(text("lo"));
      peer.send({ serverContent: { generationComplete: true } });
      peer.send({ serverContent: { turnComplete: true }, usageMetadata: { totalTokenCount: 7 } });
      return;
    case "audio":
      if (
        realtime?.activityStart &&
        obj(obj(setup.realtimeInputConfig)?.automaticActivityDetection)?.disabled !== true
      ) {
        const refusal =
          "explicit activity control is not supported when automatic activity detection is enabled";
        peer.close(1007, `Request contains an invalid argument: ${refusal}.`);
        return;
      }
      if (realtime?.activityEnd) {
        peer.send({ serverContent: { inputTranscription: { text: "How's" } } });
        peer.send({ serverContent: { inputTranscription: { text: " it going?", finished: true } } });
        peer.send({
          serverContent: {
            modelTurn: { parts: [{ inlineData: { mimeType: "audio/pcm;rate=24000", data: "AAAA" } }] },
          },
        });
        peer.send({ serverContent: { outputTranscription: { text: "All" } } });
        peer.send({
          serverContent: {
            modelTurn: { parts: [{ inlineData: { mimeType: "audio/pcm;rate=24000", data: "BBBB" } }] },
          },
        });
        peer.send({ serverContent: { outputTranscription: { text: " good." } } });
        peer.send(turnComplete);
      }
      return;
    case "tools":
      if (content) {
        peer.send({
          toolCall: { functionCalls: [{ id: "call-7", name: "get_weather", args: { city: "Paris" } }] },
        });
        return;
      }
      if (toolResponse) {
        const [answer] = list(toolResponse.functionResponses);
        if (answer?.id === "call-7" && answer.name === "get_weather") {
          peer.send(text(`Weather: ${JSON.stringify(answer.response)}`));
          peer.send(turnComplete);
        } else peer.close(1007, "Request contains an invalid argument: unknown function call id.");
      }
      return;
    case "cancel":
      peer.send({ toolCall: { functionCalls: [{ id: "call-8", name: "slow_lookup", args: {} }] } });
      peer.send({ toolCallCancellation: { ids: ["call-8"] } });
      return;
    case "interrupt":
      peer.send(text("Once upon a"));
      peer.send({ serverContent: { interrupted: true } });
      return;
    case "resume":
      if (handle === RESUME_HANDLE) {
        peer.send(text(`resumed from ${handle}`));
        peer.send(turnComplete);
        return;
      }
      peer.send({ sessionResumptionUpdate: { newHandle: RESUME_HANDLE, resumable: true } });
      peer.send(text("first"));
      peer.send(turnComplete);
      peer.send({ goAway: { timeLeft: "0s" } });
      setTimeout(() => peer.drop(), 20);
      return;
    case "crash":
      peer.send(text("par"));
      peer.close(1011, "Internal error occurred.");
      return;
    case "garbage":
      peer.socket.write(encodeFrame(OPCODE.text, Buffer.from("not json"), false));
      return;
    default:
      peer.close(1007, `the fake has no script '${script}'`);
  }
}

/** The script a model name plays: its id, except that Gemini 3 Flash Live models echo. */
const scriptOf = (model: unknown): string => {
  const id = String(model ?? "").replace(/^models\//, "");
  return /^gemini-3\..*-flash-live/.test(id) ? "echo" : id;
};

function accept(request: IncomingMessage, socket: Socket, head: Buffer): void {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const key = request.headers["sec-websocket-key"];
  if (url.pathname !== BIDI_PATH || typeof key !== "string") {
    socket.end(
      "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found",
    );
    return;
  }
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptKey(key)}\r\n\r\n`,
  );
  const apiKey = request.headers["x-goog-api-key"] ?? url.searchParams.get("key");
  let setup: Json | undefined;
  let peer: Peer | undefined;
  const reader = new FrameReader();
  const onData = (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) {
      if (frame.opcode === OPCODE.close) {
        socket.end(encodeFrame(OPCODE.close, frame.payload.subarray(0, 2), false));
        return;
      }
      if (frame.opcode === OPCODE.ping) socket.write(encodeFrame(OPCODE.pong, frame.payload, false));
      if (frame.opcode !== OPCODE.text && frame.opcode !== OPCODE.binary) continue;
      const message = obj(JSON.parse(frame.payload.toString("utf8"))) ?? {};
      if (!setup) {
        const candidate = obj(message.setup);
        const script = scriptOf(candidate?.model);
        peer = new Peer(socket, script !== "echo");
        if (apiKey !== FAKE_GEMINI_KEY)
          return peer.close(1007, "API key not valid. Please pass a valid API key.");
        const problem = setupProblem(candidate);
        if (problem) return peer.close(1007, `Request contains an invalid argument: ${problem}.`);
        if (script === "refuse")
          return peer.close(
            1008,
            `models/${script} is not found for API version v1beta, or is not supported for bidiGenerateContent.`,
          );
        if (script === "resume" && candidate?.sessionResumption === undefined)
          return peer.close(1007, "Request contains an invalid argument: resume needs sessionResumption.");
        const handle = obj(candidate?.sessionResumption)?.handle;
        if (handle !== undefined && handle !== RESUME_HANDLE) return peer.close(1008, "Session not found.");
        setup = candidate ?? {};
        if (script === "silent") return;
        peer.send({ setupComplete: {} });
        if (script === "echo") play(script, setup, peer, message);
        if (script === "garbage") play(script, setup, peer, message);
        continue;
      }
      if (peer) play(scriptOf(setup.model), setup, peer, message);
    }
  };
  socket.on("data", onData);
  socket.on("error", () => socket.destroy());
  if (head.length > 0) onData(head);
}

export interface FakeGeminiLive {
  /** `http://127.0.0.1:<port>`: the live model's `baseUrl`. */
  origin: string;
  close(): Promise<void>;
}

export async function startFakeGeminiLive(): Promise<FakeGeminiLive> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_, response) => response.writeHead(426).end("upgrade required"));
  server.on("upgrade", (request: IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    accept(request, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null)
    throw new Error("the fake Gemini Live server has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
