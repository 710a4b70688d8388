// WIP: plays each case over ADK's HTTP API in-process (createAdkApi), the served Worker's replay mode.
import { join } from "node:path";
import { loadAgentConfig } from "../../src/config/load-agent-config.js";
import { readAgentConfigDir } from "../../src/config/read-config-dir.js";
import { createAdkApi } from "../../src/handlers/api.js";
import { adkReplayPlugin } from "../../src/replay/replay-plugin.js";
import { defineApp } from "../../src/runner/app.js";
import { InMemorySessionStore } from "../../src/session/in-memory-store.js";
import { readCaseFiles } from "../../test/conformance/case-files.js";
import { CONFORMANCE_DIR, discoverCases } from "../../test/conformance/data-dir.js";
import { sessionDifferences } from "../../test/conformance/session-compare.js";

const USER = "adk_conformance_test_user";
for (const ref of discoverCases()) {
  const files = readCaseFiles(ref.dir);
  const app = defineApp({
    name: files.spec.agent,
    rootAgent: loadAgentConfig({ files: readAgentConfigDir(join(CONFORMANCE_DIR, "agents", files.spec.agent)) }),
  });
  const store = new InMemorySessionStore();
  const api = createAdkApi(() => ({
    apps: new Map([[app.name, { ...app, plugins: [adkReplayPlugin] }]]),
    sessionStore: store,
    services: {},
  }));
  const call = (path: string, method = "GET", json?: unknown) =>
    api.request(path, { method, ...(json === undefined ? {} : { body: JSON.stringify(json), headers: { "content-type": "application/json" } }) }, { ALLOW_UNAUTHENTICATED: "true" });
  const sessions = `/apps/${app.name}/users/${USER}/sessions`;
  const created = (await (await call(sessions, "POST", { state: {} })).json()) as { id: string };
  const problems: string[] = [];
  for (const [turn, message] of files.spec.user_messages.entries()) {
    const recordings = { recordings: files.recordings.recordings.filter((r) => r.user_message_index === turn) };
    const res = await call("/run_sse", "POST", {
      appName: app.name, userId: USER, sessionId: created.id, streaming: false,
      newMessage: { role: "user", parts: [{ text: message.text }] },
      stateDelta: { _adk_replay_config: { dir: ref.dir, user_message_index: turn, streaming_mode: "none", recordings } },
    });
    const text = await res.text();
    for (const line of text.split("\n").filter((l) => l.startsWith("data: "))) {
      const frame = JSON.parse(line.slice(6));
      if (frame.error || frame.errorMessage) problems.push(`turn ${turn}: ${frame.error ?? frame.errorMessage}`);
    }
  }
  const got = await (await call(`${sessions}/${created.id}`)).json();
  problems.push(...sessionDifferences(files.session, got));
  console.log(`${ref.category}/${ref.name} ${problems.length === 0 ? "pass" : `fail\n  ${problems.slice(0, 3).join("\n  ")}\n  ${JSON.stringify(got).slice(0, 300)}`}`);
}
