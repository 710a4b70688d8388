import type { AddressInfo } from "node:net";
import { AgentCard, Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";

/** One step a scripted peer publishes, in the 1.0 JSON shape; `{task}` ids are filled from the request. */
export type PeerStep =
  | { task: { state: string; message?: string; artifacts?: string[] } }
  | { status: { state: string; message?: string } }
  | { artifact: { text: string; lastChunk?: boolean; append?: boolean } }
  | { message: string }
  | { hang: true }
  /** Waits this many ms before the next step (a slow peer). */
  | { wait: number };

export type PeerScript = (request: RequestContext) => PeerStep[];

export interface PeerOptions {
  /** `"1.0"` serves a 1.0 card; `"0.3"` a 0.3 card (url + preferredTransport). */
  version: "1.0" | "0.3";
  streaming?: boolean;
  script: PeerScript;
  /** The Cache-Control header on the card. */
  cacheControl?: string;
}

export interface Peer {
  url: string;
  cardUrl: string;
  /** The user messages the peer received, as 1.0 JSON. */
  received: unknown[];
  /** The JSON-RPC methods called, in order (`SendMessage` on 1.0, `message/send` on 0.3). */
  methods: string[];
  cardFetches: number;
  close(): Promise<void>;
}

const agentText = (text: string, ids: { taskId: string; contextId: string }) => ({
  messageId: crypto.randomUUID(),
  role: "ROLE_AGENT",
  parts: [{ text }],
  ...ids,
});

/** Publishes the script's steps for one request, then finishes (or hangs until the peer closes). */
class ScriptedExecutor implements AgentExecutor {
  readonly hanging: Array<() => void> = [];
  /** Each task's context, for the status update that cancels it. */
  readonly contexts = new Map<string, string>();
  constructor(
    private readonly script: PeerScript,
    private readonly received: unknown[],
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    this.received.push(Message.toJSON(ctx.userMessage));
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    this.contexts.set(ctx.taskId, ctx.contextId);
    for (const step of this.script(ctx)) {
      if ("hang" in step) {
        await new Promise<void>((resolve) => this.hanging.push(resolve));
        return;
      }
      if ("wait" in step) {
        await new Promise((resolve) => setTimeout(resolve, step.wait));
        continue;
      }
      if ("task" in step) {
        const { state, message, artifacts = [] } = step.task;
        bus.publish(
          AgentEvent.task(
            Task.fromJSON({
              id: ctx.taskId,
              contextId: ctx.contextId,
              status: { state, ...(message ? { message: agentText(message, ids) } : {}) },
              artifacts: artifacts.map((text, i) => ({ artifactId: `a${i}`, parts: [{ text }] })),
              history: [Message.toJSON(ctx.userMessage)],
            }),
          ),
        );
      } else if ("status" in step) {
        const { state, message } = step.status;
        bus.publish(
          AgentEvent.statusUpdate(
            TaskStatusUpdateEvent.fromJSON({
              ...ids,
              status: { state, ...(message ? { message: agentText(message, ids) } : {}) },
            }),
          ),
        );
      } else if ("artifact" in step) {
        bus.publish(
          AgentEvent.artifactUpdate(
            TaskArtifactUpdateEvent.fromJSON({
              ...ids,
              artifact: { artifactId: "out", parts: [{ text: step.artifact.text }] },
              append: step.artifact.append ?? false,
              lastChunk: step.artifact.lastChunk ?? true,
            }),
          ),
        );
      } else {
        bus.publish(AgentEvent.message(Message.fromJSON(agentText(step.message, ids))));
      }
    }
    bus.finished();
  }

  /** A task canceled while its script hangs ends `canceled`; the hanging script is let go. */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const contextId = this.contexts.get(taskId) ?? "";
    bus.publish(
      AgentEvent.statusUpdate(
        TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state: "TASK_STATE_CANCELED" } }),
      ),
    );
    bus.finished();
    for (const release of this.hanging.splice(0)) release();
  }
}

function commonCard(streaming: boolean) {
  return {
    name: "peer",
    description: "A scripted A2A peer",
    version: "1.0.0",
    capabilities: { streaming },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "peer", name: "peer", description: "scripted", tags: ["test"] }],
  };
}

/** The card the peer serves: 1.0 (`supportedInterfaces`) or 0.3 (`url` + `preferredTransport`). */
function cardJson(version: "1.0" | "0.3", url: string, streaming: boolean) {
  const common = commonCard(streaming);
  return version === "1.0"
    ? { ...common, supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }] }
    : { ...common, url, preferredTransport: "JSONRPC", protocolVersion: "0.3.0" };
}

/** A real `@a2a-js/sdk` JSON-RPC server on 127.0.0.1 (an ephemeral port) that plays a script. */
export async function startPeer(options: PeerOptions): Promise<Peer> {
  const received: unknown[] = [];
  const executor = new ScriptedExecutor(options.script, received);
  const app = express();
  let url = "";
  const state = { cardFetches: 0 };
  const methods: string[] = [];
  const streaming = options.streaming ?? true;
  const card = () => cardJson(options.version, url, streaming);
  // How many times the card was fetched, for tests that cannot read `cardFetches` (workerd).
  app.get("/_stats", (_req, res) => {
    res.json({ cardFetches: state.cardFetches, methods });
  });
  app.get("/.well-known/agent-card.json", (_req, res) => {
    state.cardFetches += 1;
    if (options.cacheControl) res.set("Cache-Control", options.cacheControl);
    res.json(card());
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  // SAFETY: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}/rpc`;
  // The handler holds the 1.0 form of the card; its interface's version is the one the peer accepts.
  const handlerCard = {
    ...commonCard(streaming),
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: options.version }],
  };
  const requestHandler = new DefaultRequestHandler(
    AgentCard.fromJSON(handlerCard),
    new InMemoryTaskStore(),
    executor,
  );
  const legacyCompat = { enabled: true };
  app.use("/rpc", express.json(), (req, _res, next) => {
    if (typeof req.body?.method === "string") methods.push(req.body.method);
    next();
  });
  app.use(
    "/rpc",
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }),
  );
  return {
    url,
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    received,
    methods,
    get cardFetches() {
      return state.cardFetches;
    },
    close: async () => {
      for (const release of executor.hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
