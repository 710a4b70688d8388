// vitest globalSetup of the `workers` project: runs in Node, starts the fake model server and a scripted
// A2A peer for all files; workerd reaches both by their 127.0.0.1 URLs.
import type { TestProject } from "vitest/node";
import { startPeer } from "../../support/a2a-peer.js";
import { startFakeOpenAiServer } from "./fake-openai-server.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server, url } = await startFakeOpenAiServer();
  project.provide("fakeModelUrl", url);
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
  return async () => {
    await peer.close();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  };
}
