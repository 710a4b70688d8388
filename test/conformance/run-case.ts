import { defaultServices } from "../../src/defaults.js";
import { createAdkApi } from "../../src/handlers/api.js";
import { genaiToCamel, isRecord } from "../../src/replay/genai-keys.js";
import { defineApp } from "../../src/runner/app.js";
import { InMemorySessionStore } from "../../src/session/in-memory-store.js";
import { loadAgentTree } from "./agent-loader.js";
import type { CaseFiles, TestSpec } from "./case-files.js";
import { CONFORMANCE_DIR } from "./data-dir.js";
import { ReplayHarness } from "./replay-harness.js";
import { sessionDifferences } from "./session-compare.js";

/** The user id the Python runner always uses. */
export const CONFORMANCE_USER = "adk_conformance_test_user";

/** What one case run found; a passing case has no problems. */
export interface CaseReport {
  problems: string[];
}

/** A spec message as the run request's `newMessage`. */
function newMessage(message: TestSpec["user_messages"][number], turn: number): unknown {
  if (message.text !== undefined) return { role: "user", parts: [{ text: message.text }] };
  const content = genaiToCamel(message.content);
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  // The Python runner swaps in the live call id of an earlier call of that name; not ported yet.
  if (parts.some((p) => isRecord(p) && p.functionResponse !== undefined)) {
    throw new Error(
      `user_messages[${turn}]: function_response messages are not supported by this runner yet`,
    );
  }
  return { role: "user", ...(isRecord(content) ? content : {}) };
}

/** The JSON payloads of `data:` frames in an SSE body. */
const sseData = (body: string): unknown[] =>
  body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)));

/**
 * Runs one case over ADK's HTTP API (PROTOCOL §3.1) against `createAdkApi` with an in-memory store: create
 * the session, `POST /run_sse` per user message with the replay config in `stateDelta`, then `GET` the
 * session and compare it (§3.3). Stops at the first failing turn; every problem is in the report.
 */
export async function runCase(
  dir: string,
  files: CaseFiles,
  conformanceDir = CONFORMANCE_DIR,
): Promise<CaseReport> {
  const { spec, recordings, session: expected } = files;
  const harness = new ReplayHarness(dir, recordings);
  const app = defineApp({ name: spec.agent, rootAgent: loadAgentTree(conformanceDir, spec.agent, harness) });
  const store = new InMemorySessionStore();
  const services = defaultServices({
    log: () => undefined,
    sleep: () => Promise.reject(new Error("replay never waits: a retry was attempted")),
  });
  const api = createAdkApi(() => ({ apps: new Map([[app.name, app]]), sessionStore: store, services }));
  const call = (path: string, method = "GET", json?: unknown) =>
    api.request(
      path,
      {
        method,
        ...(json === undefined
          ? {}
          : { body: JSON.stringify(json), headers: { "content-type": "application/json" } }),
      },
      { ALLOW_UNAUTHENTICATED: "true" },
    );

  const sessions = `/apps/${spec.agent}/users/${CONFORMANCE_USER}/sessions`;
  const created = await call(sessions, "POST", { state: spec.initial_state ?? {} });
  const body: unknown = await created.json();
  if (created.status !== 200 || !isRecord(body) || typeof body.id !== "string") {
    return { problems: [`create session: HTTP ${created.status} ${JSON.stringify(body)}`] };
  }
  const sessionId = body.id;
  const expectedCodes = harness.recordedErrorCodes();

  for (const [turn, message] of spec.user_messages.entries()) {
    const res = await call("/run_sse", "POST", {
      appName: spec.agent,
      userId: CONFORMANCE_USER,
      sessionId,
      newMessage: newMessage(message, turn),
      streaming: false,
      stateDelta: {
        ...message.state_delta,
        _adk_replay_config: { dir, user_message_index: turn, streaming_mode: "none" },
      },
    });
    const text = await res.text();
    if (res.status !== 200)
      return { problems: [`turn ${turn}: /run_sse answered HTTP ${res.status}: ${text}`] };
    // A replay mismatch also ends the turn as an error event; its full text is already in `harness.problems`.
    if (harness.problems.length > 0) return { problems: [...harness.problems] };
    const problems: string[] = [];
    for (const frame of sseData(text)) {
      if (isRecord(frame) && "error" in frame)
        problems.push(`turn ${turn}: error frame ${JSON.stringify(frame)}`);
      // An agent failure is stored as an error event; one with a recorded error code is a replayed response.
      else if (
        isRecord(frame) &&
        frame.errorMessage !== undefined &&
        !expectedCodes.has(String(frame.errorCode))
      ) {
        problems.push(
          `turn ${turn}: ${String(frame.author)} failed: ${frame.errorCode}: ${frame.errorMessage}`,
        );
      }
    }
    if (problems.length > 0) return { problems };
  }

  const got = await call(`${sessions}/${sessionId}`);
  const actual: unknown = await got.json();
  await call(`${sessions}/${sessionId}`, "DELETE");
  return { problems: [...harness.unusedRecordings(), ...sessionDifferences(expected, actual)] };
}
