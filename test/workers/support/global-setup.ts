// vitest globalSetup of the `workers` project: runs in Node, starts the fake model server for all files.
import type { TestProject } from "vitest/node";
import { startFakeOpenAiServer } from "./fake-openai-server.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server, url } = await startFakeOpenAiServer();
  project.provide("fakeModelUrl", url);
  return () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
}
