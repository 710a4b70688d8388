/** `--record`: runs user messages as turns of a fresh session and writes them into an eval set file as a case. */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { userText } from "../core/content.js";
import type { Env } from "../core/ports.js";
import { emptyState } from "../evals/empty-state.js";
import { evalSetFileText, parseEvalSetFile } from "../evals/eval-file.js";
import type { EvalCase, EvalSet } from "../evals/eval-set.js";
import { invocationsOf } from "../evals/invocations.js";
import { DEFAULT_EVAL_USER_ID } from "../evals/run-eval.js";
import type { ModelProvider } from "../models/model-provider.js";
import type { App } from "../runner/app.js";
import { Runner } from "../services/defaults.js";
import { InMemorySessionStore } from "../session/in-memory-store.js";

/** Runs `messages` as turns of a fresh session and writes them as case `evalId` of `file` (made if missing). */
export async function recordCase(
  app: App,
  models: readonly ModelProvider[],
  file: string,
  evalId: string,
  messages: readonly string[],
  env: Env,
): Promise<void> {
  const sessionStore = new InMemorySessionStore();
  const runner = new Runner({ app, sessionStore, models, services: { env } });
  const session = await sessionStore.createSession({ appName: app.name, userId: DEFAULT_EVAL_USER_ID });
  const key = { appName: app.name, userId: DEFAULT_EVAL_USER_ID, sessionId: session.id };
  for (const message of messages)
    for await (const _event of runner.run({ ...key, newMessage: userText(message) })) {
      // stored as they come
    }
  const events = (await sessionStore.getSession(key))?.events ?? [];
  const now = Date.now() / 1000;
  const evalCase: EvalCase = {
    evalId,
    conversation: invocationsOf(events),
    sessionInput: { appName: app.name, userId: DEFAULT_EVAL_USER_ID, state: emptyState(app.rootAgent) },
    creationTimestamp: now,
  };
  const existing: EvalSet = existsSync(file)
    ? parseEvalSetFile(await readFile(file, "utf8"), file)
    : {
        evalSetId: basename(file).replace(/\.evalset\.json$|\.json$/, ""),
        evalCases: [],
        creationTimestamp: now,
      };
  const evalCases = [...existing.evalCases.filter((c) => c.evalId !== evalId), evalCase];
  await writeFile(file, evalSetFileText({ ...existing, evalCases }));
  const n = evalCase.conversation.length;
  console.log(`recorded ${evalId} (${n} invocation${n === 1 ? "" : "s"}) in ${file}`);
}
