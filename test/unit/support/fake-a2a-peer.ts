/** An in-process A2A 1.0 JSON-RPC peer behind a `fetch` function: scripted replies, recorded requests. */

export type Json = Record<string, unknown>;

/** What the peer answers one call with. */
export type PeerReply =
  | { result: Json } // a blocking reply: `{task}` or `{message}`
  | { stream: Json[]; cut?: boolean } // SSE StreamResponse objects; `cut` drops the connection after them
  | { status: number; body?: string }
  | { error: { code: number; message: string } }
  | { raw: string; contentType?: string }
  | { refuse: true }
  | { hang: true };

export interface FakePeerOptions {
  /** The card JSON; defaults to a 1.0 card with streaming on. */
  card?: Json;
  cardStatus?: number;
  cacheControl?: string;
  replies: PeerReply[] | ((call: number, body: Json) => PeerReply);
}

export const PEER_BASE = "http://peer.test";

export const cardV1 = (streaming = true): Json => ({
  name: "peer",
  description: "A fake peer",
  version: "1",
  supportedInterfaces: [{ url: `${PEER_BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  capabilities: { streaming },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
});

export interface FakePeer {
  fetch: typeof fetch;
  /** JSON-RPC bodies the peer received. */
  calls: Json[];
  /** Every URL fetched, in order. */
  urls: string[];
}

const sse = (items: Json[], id: unknown, cut: boolean): ReadableStream<Uint8Array> => {
  const encoder = new TextEncoder();
  const frames = items.map((result) =>
    encoder.encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`),
  );
  return new ReadableStream({
    // One frame per pull, so a cut comes after the reader has had every frame before it.
    pull(controller) {
      const frame = frames.shift();
      if (frame) controller.enqueue(frame);
      else if (cut) controller.error(new TypeError("network connection lost"));
      else controller.close();
    },
  });
};

/** A fake peer; the returned `fetch` honours the request's AbortSignal. */
export function fakePeer(options: FakePeerOptions): FakePeer {
  const calls: Json[] = [];
  const urls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    urls.push(url);
    if (init?.method !== "POST") {
      if (options.cardStatus && options.cardStatus !== 200)
        return new Response("no", { status: options.cardStatus });
      return Response.json(options.card ?? cardV1(), {
        headers: options.cacheControl ? { "Cache-Control": options.cacheControl } : {},
      });
    }
    const body = JSON.parse(String(init.body)) as Json;
    calls.push(body);
    const reply =
      typeof options.replies === "function"
        ? options.replies(calls.length - 1, body)
        : options.replies[Math.min(calls.length - 1, options.replies.length - 1)];
    if (reply === undefined) throw new Error("no scripted reply");
    const id = body.id;
    if ("refuse" in reply) throw new TypeError("fetch failed: connect ECONNREFUSED");
    if ("hang" in reply) {
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    }
    if ("status" in reply) return new Response(reply.body ?? "unavailable", { status: reply.status });
    if ("error" in reply) return Response.json({ jsonrpc: "2.0", id, error: reply.error });
    if ("raw" in reply) {
      return new Response(reply.raw, {
        headers: { "Content-Type": reply.contentType ?? "application/json" },
      });
    }
    if ("result" in reply) return Response.json({ jsonrpc: "2.0", id, result: reply.result });
    return new Response(sse(reply.stream, id, reply.cut ?? false), {
      headers: { "Content-Type": "text/event-stream" },
    });
  };
  return { fetch: fetchImpl, calls, urls };
}

/** 1.0 JSON builders for scripts. */
export const a2a = {
  text: (text: string) => ({ text }),
  agentMessage: (text: string, extra: Json = {}) => ({
    messageId: `m-${text}`,
    role: "ROLE_AGENT",
    parts: [{ text }],
    ...extra,
  }),
  userMessage: (text: string) => ({ messageId: `u-${text}`, role: "ROLE_USER", parts: [{ text }] }),
  task: (state: string, extra: Json = {}) => ({
    id: "t1",
    contextId: "c1",
    status: {
      state: `TASK_STATE_${state}`,
      ...(extra.statusText ? { message: a2a.agentMessage(String(extra.statusText)) } : {}),
    },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "statusText")),
  }),
  artifact: (id: string, ...texts: string[]) => ({ artifactId: id, parts: texts.map((text) => ({ text })) }),
  status: (state: string, text?: string, extra: Json = {}) => ({
    statusUpdate: {
      taskId: "t1",
      contextId: "c1",
      status: { state: `TASK_STATE_${state}`, ...(text ? { message: a2a.agentMessage(text) } : {}) },
      ...extra,
    },
  }),
  artifactUpdate: (text: string, lastChunk: boolean, extra: Json = {}) => ({
    artifactUpdate: {
      taskId: "t1",
      contextId: "c1",
      artifact: { artifactId: "out", parts: [{ text }] },
      append: true,
      lastChunk,
      ...extra,
    },
  }),
};
