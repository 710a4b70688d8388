import * as z from "zod";
import { Command, Query } from "../storage/sql.js";

/**
 * Schema step 4 of the app object: the app's eval sets and eval results (ADK's dev UI Evals tab, decision
 * 034) when the Worker has no R2 bucket for them. One row per document, its JSON text as written by
 * `src/evals/eval-sets.ts`; `kind` is `set` or `result`.
 */
export const EVAL_DOCUMENTS_SQL = `
  CREATE TABLE eval_documents (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (kind, id)
  );`;

const SELECT = new Query<[kind: string, id: string], { body: string }>(
  "SELECT body FROM eval_documents WHERE kind = ? AND id = ?",
  z.object({ body: z.string() }),
);
const UPSERT = new Command<[kind: string, id: string, body: string]>(
  "INSERT INTO eval_documents (kind, id, body) VALUES (?1, ?2, ?3) ON CONFLICT (kind, id) DO UPDATE SET body = ?3",
);
const DELETE = new Query<[kind: string, id: string], { id: string }>(
  "DELETE FROM eval_documents WHERE kind = ? AND id = ? RETURNING id",
  z.object({ id: z.string() }),
);
const LIST = new Query<[kind: string, after: string, limit: number], { id: string }>(
  "SELECT id FROM eval_documents WHERE kind = ? AND id > ? ORDER BY id LIMIT ?",
  z.object({ id: z.string() }),
);

export const readEvalDocument = (sql: SqlStorage, kind: string, id: string): string | null =>
  SELECT.first(sql, kind, id)?.body ?? null;

export const writeEvalDocument = (sql: SqlStorage, kind: string, id: string, body: string): void =>
  UPSERT.run(sql, kind, id, body);

export const deleteEvalDocument = (sql: SqlStorage, kind: string, id: string): boolean =>
  DELETE.all(sql, kind, id).length > 0;

/** The ids after `after` (`""`: from the first), at most `limit` (-1: all), sorted. */
export const listEvalDocuments = (sql: SqlStorage, kind: string, after = "", limit = -1): string[] =>
  LIST.all(sql, kind, after, limit).map((row) => row.id);
