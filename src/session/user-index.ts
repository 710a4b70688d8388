/**
 * The Worker's side of the user's session index (decision 046): the write-ahead mark before a session
 * changes, the row written once the change ended, and pages read from the index, each stale row read from
 * its own session (at most `LIVE_READS_PER_PAGE` of them per page) and repaired.
 */
import * as z from "zod";
import type { Session, SessionKey } from "../core/session.js";
import {
  pageSizeOf,
  SESSION_PAGE_LIMITS,
  type SessionPage,
  type SessionPageRequest,
} from "../core/session-pages.js";
import { mergeScopedState, type StateMap } from "../core/state.js";
import type { AppObject } from "../objects/app-object.js";
import type { SessionObject } from "../objects/session-object.js";
import type { UserObject } from "../objects/user-object.js";
import type { Remote } from "../storage/rpc-result.js";
import { sessionPageStart, sessionPageToken } from "./page-token.js";
import type { IndexEntry, IndexedSession } from "./session-index.js";
import type { IndexedEntry } from "./session-log.js";

/** Sessions a page may read from their own objects: with the user's and the app's, its bound of objects. */
export const LIVE_READS_PER_PAGE = 10;

/** How the index reaches the objects it reads and writes. */
export interface IndexObjects {
  user(appName: string, userId: string): Remote<UserObject>;
  app(appName: string): Remote<AppObject>;
  session(key: SessionKey): Remote<SessionObject>;
}

const StateJsonSchema = z.record(z.string(), z.unknown());
const stateOf = (json: string): StateMap => StateJsonSchema.parse(JSON.parse(json));

/** Marks of turns begun in this isolate, by lease: their end writes the row current with it. */
const turnMarks = new Map<string, number>();
/** Turns that never end (a crash) leave their mark here; the oldest go past this many. */
const MAX_TURN_MARKS = 4096;

export class UserIndex {
  constructor(private readonly objects: IndexObjects) {}

  /** Announces a change of the session before it is made; the mark its row is written with after. */
  mark(key: SessionKey): Promise<number | null> {
    return this.objects.user(key.appName, key.userId).markSession(key.sessionId);
  }

  /** Keeps a begun turn's mark until `turnEnded`. */
  turnBegan(lease: string, mark: number | null): void {
    if (mark === null) return;
    turnMarks.set(lease, mark);
    for (const oldest of turnMarks.keys()) {
      if (turnMarks.size <= MAX_TURN_MARKS) break;
      turnMarks.delete(oldest);
    }
  }

  /** The mark of the turn that held `lease`, forgotten; `null` when this isolate did not begin it. */
  turnEnded(lease: string): number | null {
    const mark = turnMarks.get(lease) ?? null;
    turnMarks.delete(lease);
    return mark;
  }

  /** Writes the session's row as its object holds it now; nothing for a session that no longer exists. */
  async written(key: SessionKey, mark: number | null): Promise<void> {
    const entry = await this.objects.session(key).indexEntry();
    if (!entry) return;
    await this.objects.user(key.appName, key.userId).writeSession(key.sessionId, entryOf(entry), mark);
  }

  /** One page of the user's sessions without events, with merged state. */
  async page(appName: string, userId: string, request: SessionPageRequest): Promise<SessionPage> {
    const { order, after } = sessionPageStart(request);
    const size = pageSizeOf(request.pageSize, SESSION_PAGE_LIMITS.defaultSize, SESSION_PAGE_LIMITS.maxSize);
    const user = this.objects.user(appName, userId);
    const query = {
      order,
      after,
      size,
      maxLive: LIVE_READS_PER_PAGE,
      maxStateChars: SESSION_PAGE_LIMITS.maxStateBytes,
    };
    const [page, app] = await Promise.all([user.sessionPage(query), this.objects.app(appName).merge({})]);
    const live = await this.#readLive(appName, userId, page.rows);
    const listed: { session: Session; seq: number }[] = [];
    let chars = 0;
    let last: IndexedSession | undefined;
    let cut = false;
    for (const row of page.rows) {
      const entry = row.live
        ? live.get(row.sessionId)
        : { lastUpdateTime: row.time, stateJson: row.stateJson };
      // A row whose session is gone is skipped; the next page still starts after it.
      if (!entry || entry.stateJson === null) {
        last = row;
        continue;
      }
      if (listed.length > 0 && chars + entry.stateJson.length > SESSION_PAGE_LIMITS.maxStateBytes) {
        cut = true;
        break;
      }
      const state = mergeScopedState(stateOf(entry.stateJson), app, page.state);
      const { lastUpdateTime } = entry;
      listed.push({
        session: { id: row.sessionId, appName, userId, state, events: [], lastUpdateTime },
        seq: row.seq,
      });
      chars += entry.stateJson.length;
      last = row;
    }
    // In order by what is listed: a row read from its session may have moved since the index placed it.
    const sign = order === "asc" ? 1 : -1;
    listed.sort((a, b) => sign * (a.session.lastUpdateTime - b.session.lastUpdateTime || a.seq - b.seq));
    const sessions = listed.map((l) => l.session);
    const more = cut || page.more;
    if (!more || !last) return { sessions };
    return { sessions, nextPageToken: sessionPageToken({ order, time: last.time, seq: last.seq }) };
  }

  /** Reads the live rows' sessions and repairs their rows; what each session holds (`null`: gone). */
  async #readLive(appName: string, userId: string, rows: readonly IndexedSession[]) {
    const live = rows.filter((row) => row.live);
    const read = new Map<string, IndexEntry | null>();
    if (live.length === 0) return read;
    const entries = await Promise.all(
      live.map((row) => this.objects.session({ appName, userId, sessionId: row.sessionId }).indexEntry()),
    );
    const repairs = live.map((row, i) => {
      const entry = entries[i] ?? null;
      read.set(row.sessionId, entry && entryOf(entry));
      const { sessionId, mark, indexedMark } = row;
      return { sessionId, mark, indexedMark, entry: entry && entryOf(entry), settled: !entry?.running };
    });
    await this.objects.user(appName, userId).repairSessions(repairs);
    return read;
  }
}

const entryOf = ({ lastUpdateTime, stateJson }: IndexedEntry): IndexEntry => ({ lastUpdateTime, stateJson });
