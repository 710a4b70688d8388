import type { InvocationContext } from "../agents/invocation-context.js";
import { errorFields } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { Session } from "../core/session.js";
import { type EventsCompactionConfig, planCompaction } from "./events-compaction.js";

export interface CompactionTurn {
  /** The turn's session: what it loaded and what it stored since. */
  session: Session;
  /** Stores an event under the turn's lease and adds it to `session.events`. */
  persist: (event: Event) => Promise<Event>;
  ctx: InvocationContext;
  log: (message: string) => void;
}

/**
 * After a turn ended well, summarizes what the config says is due into one stored compaction event (not
 * yielded: ADK appends it to the session without emitting it). A summarizer that fails costs the turn
 * nothing: it is logged and traced (`COMPACTION_FAILED`), and the next turn tries again.
 */
export async function compactAfterTurn(config: EventsCompactionConfig, turn: CompactionTurn): Promise<void> {
  const plan = planCompaction(config, turn.session.events);
  const summarizer = config.summarizer;
  if (plan === undefined || summarizer === undefined) return;
  const { ctx } = turn;
  const span = ctx.recorder.start("compaction", { "baton.compaction.events": plan.events.length }, ctx.span);
  try {
    const signal = ctx.runConfig.signal;
    const summary = await summarizer.summarize(plan.events, { services: ctx.services, signal });
    const compaction = summary?.actions.compaction;
    if (summary === undefined || compaction === undefined) {
      span.end({ "baton.compaction.stored": false });
      return;
    }
    const start = plan.startTimestamp;
    const stored = start === undefined ? summary : withStart(summary, compaction, start);
    await turn.persist(stored);
    span.end({ "baton.compaction.stored": true });
  } catch (error) {
    const { errorCode, errorMessage } = errorFields(error);
    turn.log(`Compaction after ${ctx.invocationId} failed (${errorCode}): ${errorMessage}`);
    span.end({ "baton.compaction.stored": false, "baton.error.code": "COMPACTION_FAILED" }, error);
  }
}

function withStart(event: Event, compaction: Record<string, unknown>, startTimestamp: number): Event {
  return { ...event, actions: { ...event.actions, compaction: { ...compaction, startTimestamp } } };
}
