// vitest globalSetup of the `workers` project: runs in Node, starts the fake model server, the webhook
// result receiver, an OTLP collector stand-in and a scripted A2A peer for all files; workerd reaches them by their 127.0.0.1 URLs.
import type { Server } from "node:http";
import type { TestProject } from "vitest/node";
import { startPeer } from "../../support/a2a-peer.js";
import { startFakeGeminiLive } from "../../support/fake-gemini-live.js";
import { startEverythingServer, startMcpTestServer, startMcpV2Server } from "../../support/mcp-processes.js";
import { startCollector } from "../../support/otlp-collector.js";
import { startPushReceiver } from "../../support/push-receiver.js";
import { startFakeOpenAiServer } from "./fake-openai-server.js";
import { RESULT_SECRET, startResultReceiver } from "./result-receiver.js";

const close = (server: Server) =>
  new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const model = await startFakeOpenAiServer();
  const receiver = await startResultReceiver();
  project.provide("fakeModelUrl", model.url);
  project.provide("resultReceiverUrl", receiver.url);
  project.provide("resultSecret", RESULT_SECRET);
  const collector = await startCollector();
  project.provide("otlpCollectorUrl", collector.url);
  // A2A push notifications' receiver (the demo entry's queue consumer POSTs to it).
  const pushReceiver = await startPushReceiver();
  project.provide("pushReceiverUrl", pushReceiver.origin);
  // The seed repro's peer: it reads a file, then its task fails.
  const peer = await startPeer({
    version: "1.0",
    cacheControl: "max-age=600",
    script: () => [
      { task: { state: "TASK_STATE_SUBMITTED" } },
      { status: { state: "TASK_STATE_WORKING", message: "Reading a.txt." } },
      { status: { state: "TASK_STATE_FAILED", message: "claude exited with code 1" } },
    ],
  });
  project.provide("a2aPeerCardUrl", peer.cardUrl);
  // The fake Gemini Live server: the live model's workerd tests open their WebSockets to it.
  const geminiLive = await startFakeGeminiLive();
  project.provide("fakeGeminiLiveOrigin", geminiLive.origin);
  // Real MCP servers in their own processes: the official v1 SDK's (one of them for a test to stop), the
  // registry's "everything" demo server and the official v2 SDK's (2026-07-28).
  const [mcp, stoppableMcp, everything, mcpV2] = await Promise.all([
    startMcpTestServer(),
    startMcpTestServer(),
    startEverythingServer(),
    startMcpV2Server(),
  ]);
  project.provide("mcpServerOrigin", mcp.origin);
  project.provide("stoppableMcpOrigin", stoppableMcp.origin);
  project.provide("everythingMcpUrl", `${everything.origin}/mcp`);
  project.provide("mcpV2Origin", mcpV2.origin);
  return async () => {
    await Promise.all([mcp.stop(), stoppableMcp.stop(), everything.stop(), mcpV2.stop()]);
    await peer.close();
    await geminiLive.close();
    await Promise.all([close(model.server), close(receiver.server), collector.close(), pushReceiver.close()]);
  };
}
