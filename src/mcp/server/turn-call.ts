import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Context } from "hono";
import * as z from "zod";
import { type Content, userText } from "../../core/content.js";
import type { Event } from "../../core/event.js";
import { startTurn } from "../../handlers/run.js";
import type { HonoEnv } from "../../handlers/types.js";
import type { App } from "../../runner/app.js";
import { SessionsService } from "../../runner/sessions-service.js";
import type { CreateTaskAnswer } from "./task-wire.js";
import { openCalls, resumeMessage, sessionOfState, turnInputRequired } from "./turn-input.js";
import { declaresTasks, startTurnTask, taskRefusal } from "./turn-tasks.js";
import {
  invalidArgumentsResult,
  progressLine,
  refusalResult,
  TurnArgsSchema,
  turnResult,
} from "./turn-tool.js";

/** Whether this request may be answered `input_required`: a 2026-07-28 client that takes elicitations. */
function takesInput(extra: ServerContext): boolean {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return typeof capabilities === "object" && capabilities !== null && "elicitation" in capabilities;
}

/** A turn of `sessionId` with `newMessage`, its events told as progress when the client asked for it. */
async function runTurn(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  sessionId: string,
  newMessage: Content,
  extra: ServerContext,
): Promise<Event[]> {
  const progressToken = extra.mcpReq._meta?.progressToken;
  const turn = await startTurn(c, { appName: app.name, userId, sessionId, newMessage, streaming: false });
  const events: Event[] = [];
  for await (const event of turn) {
    events.push(event);
    const line = progressToken === undefined ? undefined : progressLine(event);
    if (progressToken !== undefined && line !== undefined)
      await extra.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken, progress: events.length, message: line },
      });
  }
  return events;
}

/**
 * A `tools/call` of the app's turn tool: runs a turn through `/run`'s path. Under 2026-07-28, with a
 * client that takes elicitations, a turn that pauses on a tool confirmation or a long-running call answers
 * `input_required` (turn-input.ts); the client's retry (`requestState` and `inputResponses`) resumes it.
 * Refusals (unknown or busy session, a user not allowed) are tool errors the caller reads.
 */
export async function callTurnTool(
  c: Context<HonoEnv>,
  app: App,
  userId: string,
  rawArgs: Record<string, unknown>,
  extra: ServerContext,
): Promise<CallToolResult | InputRequiredResult | CreateTaskAnswer> {
  const args = TurnArgsSchema.safeParse(rawArgs);
  if (!args.success) return invalidArgumentsResult(z.prettifyError(args.error));
  // A client of MCP's Tasks extension gets a task at once; the turn runs on (turn-tasks.ts).
  if (declaresTasks(extra) && c.var.deps.taskStore !== undefined)
    return startTurnTask(c, app, userId, args.data.message, args.data.sessionId).catch(taskRefusal);
  const sessions = new SessionsService(c.var.deps.sessionStore, c.var.deps.services);
  const modern = takesInput(extra);
  try {
    const resumed = modern ? sessionOfState(extra.mcpReq.requestState<unknown>()) : undefined;
    let sessionId: string;
    let events: Event[];
    if (resumed !== undefined) {
      // The state only names the session: what waits is read from the caller's own stored session.
      const { session } = await sessions.get({ appName: app.name, userId, sessionId: resumed });
      const open = openCalls(session.events);
      if (open.length === 0)
        return { content: [{ type: "text", text: "This turn no longer waits for input." }], isError: true };
      const { message, unanswered } = resumeMessage(open, extra.mcpReq.inputResponses);
      if (unanswered.length > 0) return turnInputRequired(resumed, unanswered);
      sessionId = resumed;
      events = await runTurn(c, app, userId, sessionId, message, extra);
    } else {
      sessionId = args.data.sessionId ?? (await sessions.create({ appName: app.name, userId })).id;
      events = await runTurn(c, app, userId, sessionId, userText(args.data.message), extra);
    }
    const open = modern ? openCalls(events) : [];
    return open.length > 0 ? turnInputRequired(sessionId, open) : turnResult(sessionId, events);
  } catch (error) {
    return refusalResult(error);
  }
}
