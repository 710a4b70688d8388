import * as z from "zod";
import { type Content, ContentSchema, userText } from "./content.js";
import { BatonError } from "./errors.js";

/** One firing of a schedule: its name, the cron it fired for and the time Cloudflare scheduled it (ms). */
export interface ScheduleFiring {
  schedule: string;
  cron: string;
  scheduledTime: number;
}

/** A message as a schedule gives it: text (a user turn of that text) or a whole `Content`. */
export type ScheduledMessage = string | Content;

/** How an app declares a cron schedule (`defineApp({ schedules: [...] })`). */
export interface ScheduleConfig {
  /** The cron expression, exactly as listed in wrangler.toml's `[triggers] crons` (five fields, UTC). */
  cron: string;
  /** Names the schedule in turn ids and logs. Default: the cron string (two schedules on one cron need names). */
  name?: string;
  /** The session every firing continues… */
  sessionId?: string;
  /** …or the session a firing goes to (e.g. one per day: `({ scheduledTime }) => …`). */
  session?: (firing: ScheduleFiring) => string;
  /** The user message of each firing's turn. */
  message: ScheduledMessage | ((firing: ScheduleFiring) => ScheduledMessage);
  /** The user the session belongs to. */
  userId: string;
  /** A state delta applied with each firing's user event. */
  stateDelta?: Record<string, unknown>;
}

/** A schedule as an app holds it: named, its cron normalised, its session and message as functions. */
export interface ScheduleDefinition {
  readonly name: string;
  readonly cron: string;
  readonly userId: string;
  sessionOf(firing: ScheduleFiring): string;
  messageOf(firing: ScheduleFiring): Content;
  readonly stateDelta?: Record<string, unknown>;
}

/**
 * One cron field as Cloudflare accepts it: numbers, names (`MON`, `JAN`), `*`, lists, ranges, steps and
 * the `L`, `W`, `#` specials. Deploying checks the expression fully; this catches a wrong field count or a
 * stray character at definition time.
 */
const CRON_FIELD = /^[0-9A-Za-z*?,/#-]+$/;
const NAME = /^[A-Za-z0-9_*?,/# -]+$/;

/** The cron string with single spaces between its fields: what `controller.cron` is compared with. */
export const normalizeCron = (cron: string): string => cron.trim().split(/\s+/).join(" ");

const fn = <T>(what: string) =>
  z.custom<T>((value) => typeof value === "function", `${what} must be a function`);

const ScheduleConfigSchema = z
  .object({
    cron: z
      .string()
      .transform(normalizeCron)
      .refine((cron) => {
        const fields = cron.split(" ");
        return fields.length === 5 && fields.every((f) => CRON_FIELD.test(f));
      }, 'must be a five-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"'),
    name: z.string().min(1).max(128).regex(NAME).optional(),
    sessionId: z.string().min(1).max(128).optional(),
    session: fn<(firing: ScheduleFiring) => string>("session").optional(),
    message: z.union([
      z.string().min(1),
      ContentSchema,
      fn<(firing: ScheduleFiring) => ScheduledMessage>("message"),
    ]),
    userId: z.string().min(1).max(128),
    stateDelta: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((s) => (s.sessionId === undefined) !== (s.session === undefined), {
    message: "give exactly one of sessionId and session",
  });

/** A scheduled message as the user content of a turn; `where` names the schedule in the error. */
function contentOf(message: ScheduledMessage, where: string): Content {
  if (typeof message === "string") return userText(message);
  const parsed = ContentSchema.safeParse(message);
  if (!parsed.success)
    throw new BatonError("invalid_config", `${where} gave a message that is not a Content.`);
  return { ...parsed.data, role: "user" };
}

/**
 * Checks and names an app's schedules: five-field crons, exactly one of `sessionId` and `session`, and
 * unique names (the cron string by default). `invalid_config` names the schedule and the field.
 */
export function defineSchedules(
  appName: string,
  configs: readonly ScheduleConfig[],
): ReadonlyMap<string, ScheduleDefinition> {
  const schedules = new Map<string, ScheduleDefinition>();
  configs.forEach((config, index) => {
    const parsed = ScheduleConfigSchema.safeParse(config);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "schedule"}: ${i.message}`);
      throw new BatonError(
        "invalid_config",
        `Schedule ${index} of app "${appName}" is invalid: ${fields.join("; ")}.`,
      );
    }
    const { cron, sessionId, session, message, userId, stateDelta } = parsed.data;
    const name = parsed.data.name ?? cron;
    if (schedules.has(name))
      throw new BatonError(
        "invalid_config",
        `Two schedules of app "${appName}" are named "${name}": name them (\`name\`) to tell them apart.`,
      );
    const where = `Schedule "${name}" of app "${appName}"`;
    schedules.set(name, {
      name,
      cron,
      userId,
      sessionOf: (firing) => sessionId ?? session?.(firing) ?? "",
      messageOf: (firing) => contentOf(typeof message === "function" ? message(firing) : message, where),
      ...(stateDelta ? { stateDelta } : {}),
    });
  });
  return schedules;
}
