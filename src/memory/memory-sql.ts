import * as z from "zod";
import { Command, Query } from "../storage/sql.js";

/**
 * Schema step 2 of the user object: the user's memories (ADK's memory service) with an FTS5 index over
 * their text. The index is an external-content table kept in step by triggers, so a memory's text is
 * stored once. Diacritics are kept, as the in-memory store's terms keep them.
 */
export const MEMORY_SQL = `
  CREATE TABLE memories (
    seq INTEGER PRIMARY KEY,
    memory_id TEXT NOT NULL UNIQUE,
    session_id TEXT,
    entry TEXT NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX memories_of_session ON memories (session_id);
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, content = 'memories', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 0'
  );
  CREATE TRIGGER memories_added AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, text) VALUES (new.seq, new.text);
  END;
  CREATE TRIGGER memories_removed AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.seq, old.text);
  END;`;

/** A memory as the object stores it: the entry as JSON. */
export interface StoredMemory {
  id: string;
  sessionId: string | null;
  entryJson: string;
  text: string;
}

export const ADD_MEMORY = new Command<[id: string, sessionId: string | null, entry: string, text: string]>(
  "INSERT INTO memories (memory_id, session_id, entry, text) VALUES (?, ?, ?, ?) ON CONFLICT (memory_id) DO NOTHING",
);

/** Best first by FTS5's bm25 (lower is better), then newest. `?1` is an FTS5 query of quoted terms. */
export const SEARCH_MEMORIES = new Query<[match: string, limit: number], { entry: string }>(
  `SELECT m.entry FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
   WHERE memories_fts MATCH ?1 ORDER BY bm25(memories_fts), m.seq DESC LIMIT ?2`,
  z.object({ entry: z.string() }),
);

export const FORGET_SESSION_MEMORIES = new Command<[sessionId: string]>(
  "DELETE FROM memories WHERE session_id = ?",
);
export const FORGET_ALL_MEMORIES = new Command<[]>("DELETE FROM memories");

/** An FTS5 query matching any of `terms`, each quoted (so no term is read as FTS5 syntax). */
export const anyOf = (terms: readonly string[]): string =>
  terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
