import * as z from "zod";
import { type Event, EventSchema } from "../core/event.js";
import type { LineVerdict } from "../session/waiting-line.js";
import { Command, parseJson, Query } from "../storage/sql.js";

/**
 * Migration step: the turns waiting in the session's line (double-texting's waiting modes, decision 028), by
 * the id of the user event each will store, in arrival order. A row lives from the turn's arrival until it
 * begins (or is refused): what the object's memory loses in a restart, its storage keeps.
 */
export const WAITING_TURNS_SQL = `CREATE TABLE waiting_turns (
     event_id TEXT PRIMARY KEY,
     arrived_at INTEGER NOT NULL,
     event TEXT NOT NULL
   );`;

/**
 * Migration step (decision 047): whether the caller waited inside the object (its turn runs there, so a
 * restart of the object ends it), and the row's outcome once another turn decided for it: `replaced`
 * (`latest`) or `joined:<invocation>` (`merge`), kept `SETTLED_KEPT_MS` for a caller that asks again.
 */
export const WAITING_TURNS_OUTCOME_SQL = `ALTER TABLE waiting_turns ADD COLUMN here INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE waiting_turns ADD COLUMN outcome TEXT;`;

/** How long a settled row is kept for a caller whose call broke and that asks again. */
export const SETTLED_KEPT_MS = 15 * 60_000;

const INSERT = new Command<[eventId: string, arrivedAt: number, event: string, here: number]>(
  "INSERT INTO waiting_turns (event_id, arrived_at, event, here) VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
);
const DELETE_WAITING = new Command<[eventId: string]>(
  "DELETE FROM waiting_turns WHERE event_id = ? AND outcome IS NULL",
);
const SETTLE = new Command<[outcome: string, eventId: string]>(
  "UPDATE waiting_turns SET outcome = ? WHERE event_id = ? AND outcome IS NULL",
);
const PURGE = new Command<[before: number]>(
  "DELETE FROM waiting_turns WHERE outcome IS NOT NULL AND arrived_at < ?",
);
const OUTCOME = new Query<[eventId: string], { outcome: string | null }>(
  "SELECT outcome FROM waiting_turns WHERE event_id = ?",
  z.object({ outcome: z.string().nullable() }),
);
const ROW = z.object({ event_id: z.string(), arrived_at: z.number(), event: z.string(), here: z.number() });
const UNSETTLED = new Query<[], z.infer<typeof ROW>>(
  "SELECT event_id, arrived_at, event, here FROM waiting_turns WHERE outcome IS NULL ORDER BY arrived_at, rowid",
  ROW,
);

/** A stored waiting turn no caller holds in this lifetime of the object. */
export interface Orphan {
  event: Event;
  arrivedAt: number;
  /** Its caller waited inside the object, so it is gone for sure (no grace to wait out). */
  here: boolean;
}

interface Unsettled {
  arrivedAt: number;
  here: boolean;
}

/**
 * The stored line of waiting turns, and which of them a caller holds in this lifetime of the object. A
 * row no caller holds is an orphan: its caller waited in an earlier lifetime (the object restarted under
 * it). The unsettled rows are kept in memory too (read once), so the checks on a turn's way cost no query.
 */
export class WaitingTurns {
  readonly #held = new Set<string>();
  /** Orphans the object runs itself that have not taken their place back in the line yet. */
  readonly #reentering = new Set<string>();
  #unsettled: Map<string, Unsettled> | undefined;
  constructor(private readonly sql: SqlStorage) {}

  /**
   * A caller waits with `event`: its row is written (or, for a caller that came back after a restart,
   * kept); returns its arrival time, which is its place in the line.
   */
  arrive(event: Event, now: number, here: boolean): number {
    PURGE.run(this.sql, now - SETTLED_KEPT_MS);
    const rows = this.#rows();
    const known = rows.get(event.id);
    if (!known) {
      INSERT.run(this.sql, event.id, now, JSON.stringify(event), here ? 1 : 0);
      rows.set(event.id, { arrivedAt: now, here });
    }
    this.#held.add(event.id);
    this.#reentering.delete(event.id);
    return known?.arrivedAt ?? now;
  }

  /** Whether `eventId` waits in the stored line (unsettled). */
  has(eventId: string): boolean {
    return this.#rows().has(eventId);
  }

  /** How many turns wait in the stored line, held or not. */
  get size(): number {
    return this.#rows().size;
  }

  /** What another turn decided for `eventId` while it waited (its caller asks again), if anything. */
  outcomeOf(eventId: string): LineVerdict | undefined {
    const outcome = OUTCOME.first(this.sql, eventId)?.outcome;
    if (!outcome) return undefined;
    if (outcome === "replaced") return { kind: "replaced" };
    return { kind: "joined", invocationId: outcome.slice("joined:".length) };
  }

  /** The caller stopped waiting (its turn began, or was refused): an unsettled row goes. */
  leave(eventId: string): void {
    this.#held.delete(eventId);
    this.#reentering.delete(eventId);
    this.#rows().delete(eventId);
    DELETE_WAITING.run(this.sql, eventId);
  }

  /** Another turn decided for these waiting turns: their rows keep the verdict for a caller that asks again. */
  settle(eventIds: readonly string[], verdict: LineVerdict): void {
    const outcome = verdict.kind === "replaced" ? "replaced" : `joined:${verdict.invocationId}`;
    for (const id of eventIds) {
      this.#rows().delete(id);
      SETTLE.run(this.sql, outcome, id);
    }
  }

  /** The ids of every unsettled waiting turn. */
  ids(): string[] {
    return [...this.#rows().keys()];
  }

  /** Whether a turn no caller holds arrived before `arrived` (it goes first once someone runs it). */
  unheldBefore(arrived: number): boolean {
    for (const [id, row] of this.#rows()) if (row.arrivedAt < arrived && !this.#held.has(id)) return true;
    return false;
  }

  /** The stored user events no caller waits for, in arrival order. */
  orphans(): Orphan[] {
    if (![...this.#rows().keys()].some((id) => !this.#held.has(id))) return [];
    return UNSETTLED.all(this.sql)
      .filter((row) => !this.#held.has(row.event_id))
      .map((row) => ({
        event: EventSchema.parse(parseJson(row.event)),
        arrivedAt: row.arrived_at,
        here: row.here === 1,
      }));
  }

  /**
   * The object itself runs this orphan now: held from here on, so no alarm runs it a second time, and
   * `reentering` until its turn takes its place back in the line.
   */
  hold(eventId: string): void {
    this.#held.add(eventId);
    this.#reentering.add(eventId);
  }

  /**
   * Whether an orphan the object runs is still on its way back to the line: no one takes the session
   * meanwhile, so the turns that waited together before a restart wait (and merge) together after it.
   */
  reentering(): boolean {
    return this.#reentering.size > 0;
  }

  /** Forgets an orphan once its turn is queued (or given up). */
  forgetOrphan(eventId: string): void {
    this.leave(eventId);
  }

  /** Forgets the kept rows (storage was changed behind them: the session deleted). */
  drop(): void {
    this.#unsettled = undefined;
  }

  #rows(): Map<string, Unsettled> {
    this.#unsettled ??= new Map(
      UNSETTLED.all(this.sql).map((row) => [
        row.event_id,
        { arrivedAt: row.arrived_at, here: row.here === 1 },
      ]),
    );
    return this.#unsettled;
  }
}
