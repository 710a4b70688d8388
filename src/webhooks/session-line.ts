/**
 * A session's line of queued webhook turns, kept in the synchronous KV storage of the turn object named by
 * that session (`TurnLedger.line`). Turns join in the order their deliveries were accepted; only the head
 * may run, so one session's turns run in arrival order. Each call is a read and writes with no `await`
 * between them: the object's single thread makes every one atomic.
 */

const NEXT = "line:next";
/** `line:at:<place>` → turn id; places are zero-padded so the storage's key order is arrival order. */
const AT = "line:at:";
/** `line:of:<turn id>` → place, to leave by turn id. */
const OF = "line:of:";

const placeKey = (place: number) => `${AT}${String(place).padStart(12, "0")}`;

/** Puts `turnId` at the end of the line (once: a second call returns its place). Returns its place, from 1. */
export function enroll(kv: SyncKvStorage, turnId: string): number {
  const known = kv.get<number>(`${OF}${turnId}`);
  if (known !== undefined) return known;
  const place = (kv.get<number>(NEXT) ?? 0) + 1;
  kv.put(NEXT, place);
  kv.put(placeKey(place), turnId);
  kv.put(`${OF}${turnId}`, place);
  return place;
}

/** The turn at the head of the line, or `undefined` when the line is empty. */
export function head(kv: SyncKvStorage): string | undefined {
  for (const [, turnId] of kv.list<string>({ prefix: AT, limit: 1 })) return turnId;
  return undefined;
}

/** Takes `turnId` out of the line (a turn that ended, or one that expired); returns the new head. */
export function leave(kv: SyncKvStorage, turnId: string): string | undefined {
  const place = kv.get<number>(`${OF}${turnId}`);
  if (place !== undefined) {
    kv.delete(placeKey(place));
    kv.delete(`${OF}${turnId}`);
  }
  return head(kv);
}
