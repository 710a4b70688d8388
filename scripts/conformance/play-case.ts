import { genaiToCamel, isRecord } from "../../src/replay/genai-keys.js";
import type { CaseFiles, Recordings, TestSpec } from "./case-files.js";
import { sessionDifferences } from "./session-compare.js";

/** The user id ADK's conformance runner always uses. */
export const CONFORMANCE_USER = "adk_conformance_test_user";

/** One HTTP call to the server under test: a path of ADK's API, a method and an optional JSON body. */
export type Send = (path: string, method?: string, json?: unknown) => Promise<Response>;

/** The function calls seen so far, by name → the latest live call id (the runner patches ids with it). */
type CallIds = Map<string, string>;

/** A spec message as the run request's `newMessage`; a `function_response` gets the live id of its call. */
function newMessage(message: TestSpec["user_messages"][number], callIds: CallIds): unknown {
  if (message.text !== undefined) return { role: "user", parts: [{ text: message.text }] };
  const content = genaiToCamel(message.content);
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  for (const part of parts) {
    const response = isRecord(part) ? part.functionResponse : undefined;
    const id = isRecord(response) ? callIds.get(String(response.name)) : undefined;
    if (isRecord(response) && id !== undefined) response.id = id;
  }
  return { role: "user", ...(isRecord(content) ? content : {}) };
}

/** The JSON payloads of `data:` frames in an SSE body. */
const sseData = (body: string): unknown[] =>
  body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)));

const rememberCalls = (event: Record<string, unknown>, callIds: CallIds): void => {
  const parts = isRecord(event.content) && Array.isArray(event.content.parts) ? event.content.parts : [];
  for (const part of parts) {
    const call = isRecord(part) ? part.functionCall : undefined;
    if (isRecord(call) && typeof call.id === "string") callIds.set(String(call.name), call.id);
  }
};

/** The `error_code`s the recorded responses carry: error events Python produced too, so not failures. */
const recordedErrorCodes = (recordings: Recordings): Set<string> =>
  new Set(
    recordings.recordings.flatMap((r) => {
      const llm = r.llm_recording;
      const responses = llm?.llm_responses ?? (llm?.llm_response ? [llm.llm_response] : []);
      return responses.flatMap((response) =>
        typeof response.error_code === "string" ? [response.error_code] : [],
      );
    }),
  );

/**
 * Plays one case against a server in replay mode as ADK's runner does (PROTOCOL §3.1): create the
 * session, `POST /run_sse` per user message with `_adk_replay_config` in `stateDelta` (that turn's
 * recordings inline, since a Worker cannot read `dir`), then `GET` the session, compare it with
 * `generated-session.yaml` (§3.3) and `DELETE` it. Stops at the first failing turn. Returns every
 * problem found, first difference first; none means the case passes.
 */
export async function playCase(dir: string, files: CaseFiles, send: Send): Promise<string[]> {
  const { spec, recordings, session: expected } = files;
  const sessions = `/apps/${spec.agent}/users/${CONFORMANCE_USER}/sessions`;
  const created = await send(sessions, "POST", { state: spec.initial_state ?? {} });
  const body: unknown = await created.json();
  if (created.status !== 200 || !isRecord(body) || typeof body.id !== "string")
    return [`create session: HTTP ${created.status} ${JSON.stringify(body)}`];
  const sessionId = body.id;
  const expectedCodes = recordedErrorCodes(recordings);
  const callIds: CallIds = new Map();

  for (const [turn, message] of spec.user_messages.entries()) {
    const turnRecordings = recordings.recordings.filter((r) => r.user_message_index === turn);
    const res = await send("/run_sse", "POST", {
      appName: spec.agent,
      userId: CONFORMANCE_USER,
      sessionId,
      newMessage: newMessage(message, callIds),
      streaming: false,
      stateDelta: {
        ...message.state_delta,
        _adk_replay_config: {
          dir,
          user_message_index: turn,
          streaming_mode: "none",
          recordings: { recordings: turnRecordings },
        },
      },
    });
    const text = await res.text();
    if (res.status !== 200) return [`turn ${turn}: /run_sse answered HTTP ${res.status}: ${text}`];
    const problems: string[] = [];
    for (const frame of sseData(text).filter(isRecord)) {
      rememberCalls(frame, callIds);
      if ("error" in frame) problems.push(`turn ${turn}: error frame ${JSON.stringify(frame)}`);
      // An agent failure (a replay mismatch too) is an error event; a recorded error code is a replayed one.
      else if (frame.errorMessage !== undefined && !expectedCodes.has(String(frame.errorCode))) {
        problems.push(
          `turn ${turn}: ${String(frame.author)} failed: ${frame.errorCode}: ${frame.errorMessage}`,
        );
      }
    }
    if (problems.length > 0) return problems;
  }

  const got = await send(`${sessions}/${sessionId}`);
  const actual: unknown = await got.json();
  await send(`${sessions}/${sessionId}`, "DELETE");
  return sessionDifferences(expected, actual);
}
