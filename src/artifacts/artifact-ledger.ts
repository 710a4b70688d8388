/**
 * Where an artifact's version number and its scope's budget are decided (decision 048): in the object that
 * owns the scope, in one transaction, before the bytes are written. A save reserves the next version and
 * its bytes against the budget (a reservation counts until it is settled or lapses), writes the blob, then
 * settles. Two saves cannot take one number, and twenty cannot overshoot the budget together. On Workers the
 * ledger is the user's Durable Object (`do-artifact-ledger.ts`); in Node it is a `Map` (`memoryLedger`).
 */

/** One scope's artifacts: a session's (`sessionId`), or a user's `user:` names (`sessionId: null`). */
export interface LedgerScope {
  appName: string;
  userId: string;
  sessionId: string | null;
}

/** A version the blob store holds (from a listing), for a ledger that has not seen its scope yet. */
export interface LedgerVersion {
  filename: string;
  version: number;
  bytes: number;
}

export interface Reservation {
  scope: LedgerScope;
  filename: string;
  bytes: number;
  /** The scope's budget (`maxScopeBytes`). */
  maxBytes: number;
  /** The scope's blobs as listed, sent when the ledger answered `unseen`. */
  listed?: readonly LedgerVersion[];
  /** A version whose number a blob already held (the reservation came back `false` from the store): its size. */
  taken?: { version: number; bytes: number };
}

/** `reserved`: the version is this save's; `over`: the budget has `used` bytes taken; `unseen`: list first. */
export type ReserveOutcome =
  | { kind: "reserved"; version: number }
  | { kind: "over"; used: number }
  | { kind: "unseen" };

export interface ArtifactLedger {
  reserve(reservation: Reservation): Promise<ReserveOutcome>;
  /** The reserved version's blob landed (`true`) or was not written (`false`, the reservation is dropped). */
  settle(scope: LedgerScope, filename: string, version: number, landed: boolean): Promise<void>;
  /** Forgets one name's versions, or (`filename` left out) every version of the scope. */
  forget(scope: LedgerScope, filename?: string): Promise<void>;
}

/** How long a reservation counts without being settled (a Worker cut off mid-save leaves one behind). */
export const RESERVATION_MS = 5 * 60 * 1000;

/** One version in a ledger. */
export interface LedgerRow {
  filename: string;
  version: number;
  bytes: number;
  /** Until when an unsettled reservation counts; `null` once its blob landed. */
  pendingUntil: number | null;
}

/** What a reservation changes in its scope's rows: lapsed ones go, a taken version is recorded, one is added. */
export interface LedgerChanges {
  outcome: ReserveOutcome;
  lapsed: LedgerRow[];
  taken?: LedgerRow;
  added?: LedgerRow;
}

/** The ledger's decision over one scope's rows, shared by the SQL and `Map` ledgers (which apply the changes). */
export function decide(
  rows: readonly LedgerRow[],
  reservation: Omit<Reservation, "scope" | "listed">,
  now: number,
): LedgerChanges {
  const { filename, bytes, maxBytes, taken } = reservation;
  const same = (a: LedgerRow, b: { filename: string; version: number }) =>
    a.filename === b.filename && a.version === b.version;
  const takenRow = taken && { filename, version: taken.version, bytes: taken.bytes, pendingUntil: null };
  const lapsed = rows.filter(
    (r) => r.pendingUntil !== null && r.pendingUntil <= now && !(takenRow && same(r, takenRow)),
  );
  const kept = [
    ...rows.filter((r) => !lapsed.includes(r) && !(takenRow && same(r, takenRow))),
    ...(takenRow ? [takenRow] : []),
  ];
  const changes = { lapsed, ...(takenRow ? { taken: takenRow } : {}) };
  const used = kept.reduce((sum, row) => sum + row.bytes, 0);
  if (used + bytes > maxBytes) return { ...changes, outcome: { kind: "over", used } };
  const version =
    kept.filter((r) => r.filename === filename).reduce((max, r) => Math.max(max, r.version), -1) + 1;
  const added = { filename, version, bytes, pendingUntil: now + RESERVATION_MS };
  return { ...changes, added, outcome: { kind: "reserved", version } };
}

/** The listed versions as the ledger's rows (settled: their blobs are there). */
export const listedRows = (listed: readonly LedgerVersion[]): LedgerRow[] =>
  listed.map((v) => ({ ...v, pendingUntil: null }));

/**
 * A ledger in this isolate's memory: right for `InMemoryArtifactService` (Node, tests), whose blobs live in
 * the same isolate; a blob store shared between isolates needs a shared ledger (`r2Artifacts` gives the user's
 * object). Each scope is read from the store's listing the first time it is used.
 */
export function memoryLedger(now: () => number = () => Date.now()): ArtifactLedger {
  const scopes = new Map<string, LedgerRow[]>();
  const keyOf = (scope: LedgerScope) => JSON.stringify([scope.appName, scope.userId, scope.sessionId]);
  const rowsOf = (scope: LedgerScope) => {
    const rows = scopes.get(keyOf(scope)) ?? [];
    scopes.set(keyOf(scope), rows);
    return rows;
  };
  return {
    async reserve(reservation) {
      if (!scopes.has(keyOf(reservation.scope))) {
        if (!reservation.listed) return { kind: "unseen" };
        scopes.set(keyOf(reservation.scope), listedRows(reservation.listed));
      }
      const rows = rowsOf(reservation.scope);
      const { outcome, lapsed, taken, added } = decide(rows, reservation, now());
      const changed = (r: LedgerRow) =>
        lapsed.includes(r) ||
        (taken !== undefined && r.filename === taken.filename && r.version === taken.version);
      const next = [...rows.filter((r) => !changed(r)), ...(taken ? [taken] : []), ...(added ? [added] : [])];
      rows.splice(0, rows.length, ...next);
      return outcome;
    },
    async settle(scope, filename, version, landed) {
      const rows = rowsOf(scope);
      const at = rows.findIndex((r) => r.filename === filename && r.version === version);
      const row = rows[at];
      if (!row) return;
      if (landed) row.pendingUntil = null;
      else rows.splice(at, 1);
    },
    async forget(scope, filename) {
      const rows = rowsOf(scope);
      for (let i = rows.length - 1; i >= 0; i--)
        if (filename === undefined || rows[i]?.filename === filename) rows.splice(i, 1);
    },
  };
}
