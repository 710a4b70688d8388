import * as z from "zod";
import { BatonError } from "../core/errors.js";

/** A named read: its SQL, the types of its bindings, and the zod schema each row is checked against. */
export class Query<Args extends SqlStorageValue[], Row> {
  constructor(
    readonly text: string,
    readonly row: z.ZodType<Row>,
  ) {}

  all(sql: SqlStorage, ...args: Args): Row[] {
    return sql
      .exec(this.text, ...args)
      .toArray()
      .map((r) => this.row.parse(r));
  }

  first(sql: SqlStorage, ...args: Args): Row | undefined {
    return this.all(sql, ...args)[0];
  }
}

/** A named write with typed bindings. */
export class Command<Args extends SqlStorageValue[]> {
  constructor(readonly text: string) {}

  run(sql: SqlStorage, ...args: Args): void {
    sql.exec(this.text, ...args);
  }
}

const CREATE_VERSION_TABLE = new Command<[]>(
  "CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
);
const READ_VERSION = new Query<[], { version: number }>(
  "SELECT version FROM schema_version WHERE id = 1",
  z.object({ version: z.number().int() }),
);
const WRITE_VERSION = new Command<[version: number]>(
  "INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version",
);

/** The schema version stored in this object's database (0 before the first migration). */
export function schemaVersion(sql: SqlStorage): number {
  CREATE_VERSION_TABLE.run(sql);
  return READ_VERSION.first(sql)?.version ?? 0;
}

/**
 * Brings the database to the last step's version. `steps[i]` is the SQL script that takes version i to
 * i + 1; the stored version says which have run. All steps run in one transaction.
 */
export function migrate(storage: DurableObjectStorage, steps: readonly string[]): void {
  storage.transactionSync(() => {
    const from = schemaVersion(storage.sql);
    if (from > steps.length) {
      throw new BatonError(
        "storage_error",
        `Stored schema version ${from} is newer than this code knows (${steps.length})`,
      );
    }
    for (const step of steps.slice(from)) storage.sql.exec(step);
    if (from < steps.length) WRITE_VERSION.run(storage.sql, steps.length);
  });
}

/** JSON text read back from SQL, parsed; the caller's zod schema checks the shape. */
export const parseJson = (text: string): unknown => JSON.parse(text);
