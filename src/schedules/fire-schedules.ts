import { BatonError } from "../core/errors.js";
import { assertSafeShape } from "../core/safe-shape.js";
import { normalizeCron, type ScheduleDefinition, type ScheduleFiring } from "../core/schedule.js";
import { type TurnRequest, TurnRequestSchema } from "../core/webhook.js";
import type { App } from "../runner/app.js";
import { type EnqueueDeps, type EnqueueOutcome, enqueueTurn } from "../webhooks/enqueue-turn.js";

export interface FireDeps extends EnqueueDeps {
  log(message: string): void;
}

/** What Cloudflare's `scheduled` handler gets: the cron that fired and when it was scheduled (ms). */
export interface CronFiring {
  cron: string;
  scheduledTime: number;
}

/** One schedule's turn for this firing: queued, or a duplicate of a firing already queued. */
export type FiredTurn = EnqueueOutcome & { appName: string; schedule: string };

/**
 * Queues one turn per schedule declared with the cron that fired, in every app. The delivery id is the
 * scheduled time, so a firing delivered twice (or retried) finds its turn already claimed and queues
 * nothing. Every due schedule is tried; if any failed, the handler throws after naming them all, so the
 * invocation is reported as failed.
 */
export async function fireSchedules(
  apps: ReadonlyMap<string, App>,
  controller: CronFiring,
  deps: FireDeps,
): Promise<FiredTurn[]> {
  const cron = normalizeCron(controller.cron);
  const due = [...apps.values()].flatMap((app) =>
    [...app.schedulesByName.values()].filter((s) => s.cron === cron).map((schedule) => ({ app, schedule })),
  );
  if (due.length === 0) {
    deps.log(`Cron "${cron}" fired, but no app declares a schedule for it; nothing queued.`);
    return [];
  }
  const settled = await Promise.allSettled(
    due.map(async ({ app, schedule }): Promise<FiredTurn> => {
      const firing = { schedule: schedule.name, cron, scheduledTime: controller.scheduledTime };
      const turn = turnOf(app.name, schedule, firing);
      const deliveryId = new Date(controller.scheduledTime).toISOString();
      const claim = {
        appName: app.name,
        origin: "schedule" as const,
        source: schedule.name,
        deliveryId,
        turn,
      };
      const outcome = await enqueueTurn(claim, deps);
      return { ...outcome, appName: app.name, schedule: schedule.name };
    }),
  );
  const failures = settled.flatMap((s) => (s.status === "rejected" ? [reasonOf(s.reason)] : []));
  for (const failure of failures) deps.log(failure);
  if (failures.length > 0)
    throw new BatonError(
      "internal",
      `Cron "${cron}": ${failures.length} schedule(s) failed: ${failures.join(" | ")}`,
    );
  return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
}

/** The schedule's turn for a firing, checked as a webhook's `toTurn` result is. */
function turnOf(appName: string, schedule: ScheduleDefinition, firing: ScheduleFiring): TurnRequest {
  const where = `Schedule "${schedule.name}" of app "${appName}"`;
  let turn: unknown;
  try {
    turn = {
      userId: schedule.userId,
      sessionId: schedule.sessionOf(firing),
      newMessage: schedule.messageOf(firing),
      ...(schedule.stateDelta ? { stateDelta: schedule.stateDelta } : {}),
    };
  } catch (error) {
    throw new BatonError("invalid_config", `${where} could not make its turn: ${reasonOf(error)}`);
  }
  const parsed = TurnRequestSchema.safeParse(turn);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new BatonError("invalid_config", `${where} made an invalid turn: ${fields}`);
  }
  assertSafeShape(parsed.data, `${where}'s turn`);
  return parsed.data;
}

const reasonOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
