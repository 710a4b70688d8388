import * as z from "zod";
import { REMINDER_LIMITS, type Reminder, type ReminderStore } from "../core/reminder.js";
import type { SessionKey } from "../core/session.js";
import type { ToolContext } from "./callback-context.js";
import { type FunctionTool, functionTool } from "./function-tool.js";

const SetReminderArgs = z
  .object({
    message: z
      .string()
      .min(1)
      .max(REMINDER_LIMITS.messageChars)
      .describe("What the user's next turn will say when the reminder fires, e.g. 'Remind me: call Ana'."),
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("When to fire, as an ISO 8601 date-time with an offset, e.g. 2026-12-03T09:00:00Z."),
    delay_seconds: z.number().int().min(0).optional().describe("Or: how many seconds from now to fire."),
    cancel_key: z
      .string()
      .min(1)
      .max(REMINDER_LIMITS.keyChars)
      .optional()
      .describe(
        "A name to cancel or replace it by later; setting a key already pending replaces that reminder.",
      ),
  })
  .refine((a) => (a.at === undefined) !== (a.delay_seconds === undefined), {
    message: "give exactly one of at and delay_seconds",
  });

const ManageRemindersArgs = z.object({
  cancel: z
    .string()
    .min(1)
    .optional()
    .describe("The cancel_key (or id) of a pending reminder to cancel; leave out to only list them."),
});

/** A reminder as the model sees it: ISO times, snake_case keys. */
const shown = (r: Reminder) => ({
  id: r.id,
  ...(r.key === undefined ? {} : { cancel_key: r.key }),
  message: r.message,
  due_at: new Date(r.dueAt).toISOString(),
});

/** The store and the session a tool call works on, or an error for the model when there is no store. */
function target(ctx: ToolContext): { store: ReminderStore; key: SessionKey } | { error: string } {
  const store = ctx.invocation.services.reminders;
  if (!store) return { error: "Reminders are not available here: the session store does not keep them." };
  const { appName, userId, id } = ctx.invocation.session;
  return { store, key: { appName, userId, sessionId: id } };
}

/**
 * ADK-style built-in tool `set_reminder`: schedules a future turn of the current session whose user
 * message is `message`, at a time (`at`) or after a delay (`delay_seconds`), with an optional
 * `cancel_key`. Opt in per agent: `tools: [scheduleReminderTool(), manageRemindersTool()]`. The Durable
 * Object session store keeps and fires them (docs/triggers.md).
 */
export function scheduleReminderTool(): FunctionTool {
  return functionTool({
    name: "set_reminder",
    description:
      "Schedules a reminder: at the given time (or after the delay) this conversation gets a new user turn " +
      "with the message. Use it for follow-ups and 'remind me' requests.",
    parameters: SetReminderArgs,
    stateScopes: [],
    async execute(args, ctx) {
      const on = target(ctx);
      if ("error" in on) return on;
      const now = ctx.invocation.services.clock.now();
      const dueAt = args.at === undefined ? now + (args.delay_seconds ?? 0) * 1000 : Date.parse(args.at);
      if (dueAt - now > REMINDER_LIMITS.maxDelayMs)
        return { error: "A reminder may be at most a year ahead." };
      const { reminder, replaced } = await on.store.set(on.key, {
        message: args.message,
        dueAt: Math.max(dueAt, now),
        ...(args.cancel_key === undefined ? {} : { key: args.cancel_key }),
      });
      return {
        status: "scheduled",
        reminder: shown(reminder),
        ...(replaced ? { replaced: shown(replaced) } : {}),
      };
    },
  });
}

/**
 * ADK-style built-in tool `manage_reminders`: lists the current session's pending reminders and, given
 * `cancel`, cancels the one with that cancel key (or id) first.
 */
export function manageRemindersTool(): FunctionTool {
  return functionTool({
    name: "manage_reminders",
    description:
      "Lists this conversation's pending reminders; with `cancel`, first cancels the reminder with that cancel_key or id.",
    parameters: ManageRemindersArgs,
    stateScopes: [],
    async execute(args, ctx) {
      const on = target(ctx);
      if ("error" in on) return on;
      const cancelled = args.cancel === undefined ? undefined : await on.store.cancel(on.key, args.cancel);
      const pending = (await on.store.list(on.key)).map(shown);
      if (cancelled === null)
        return { error: `No pending reminder has the key or id "${args.cancel}".`, pending };
      return { ...(cancelled ? { cancelled: shown(cancelled) } : {}), pending };
    },
  });
}
