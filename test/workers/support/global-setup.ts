// vitest globalSetup of the `workers` project: runs in Node, starts the fake model server and the webhook
// result receiver for all files.
import type { Server } from "node:http";
import type { TestProject } from "vitest/node";
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
  return async () => {
    await Promise.all([close(model.server), close(receiver.server)]);
  };
}
