import * as z from "zod";
import type { ThreadMessage } from "../core/email.js";
import { Command, parseJson, Query } from "../storage/sql.js";

/**
 * Who takes part in each mail thread (decision 048), kept in the turn shard the thread's name hashes to
 * (schema step 3 of a `TurnObject`). A thread is named by its root message (the first `References` id, else
 * `In-Reply-To`, else the message's own id) and holds one or more sessions ("branches"), each with the
 * addresses that took part in it: the From, To and Cc of its messages. A message continues the first branch
 * all its From addresses take part in; a sender who takes part in none starts a branch of their own, so a
 * stranger who names someone else's Message-ID in `References` never reads or joins that thread. Rows are
 * kept as long as sessions are (a forgotten thread would let its next sender take its first session over).
 */
export const MAIL_THREADS_SQL = `
  CREATE TABLE mail_threads (
    name TEXT PRIMARY KEY,
    branches TEXT NOT NULL
  );`;

/** At most this many addresses are remembered per branch (a message may name hundreds in `Cc`). */
const MAX_PARTICIPANTS = 200;
/** At most this many branches per thread: a stranger past them is refused (no branch is ever shared). */
export const MAX_BRANCHES = 100;

const BranchesSchema = z.array(z.array(z.string()));
const READ = new Query<[name: string], { branches: string }>(
  "SELECT branches FROM mail_threads WHERE name = ?",
  z.object({ branches: z.string() }),
);
const WRITE = new Command<[name: string, branches: string]>(
  `INSERT INTO mail_threads (name, branches) VALUES (?1, ?2)
   ON CONFLICT (name) DO UPDATE SET branches = ?2`,
);

const joined = (known: readonly string[], added: readonly string[]): string[] =>
  [...new Set([...known, ...added])].slice(0, MAX_PARTICIPANTS);

/**
 * The branch of thread `name` that `message` belongs to (0 is the thread's first session), its addresses
 * added to that branch; `null` when it would need a branch past `MAX_BRANCHES`. One read and one write with
 * no `await` between them, so atomic in the object.
 */
export function joinThread(sql: SqlStorage, name: string, message: ThreadMessage): number | null {
  const row = READ.first(sql, name);
  const branches = row ? BranchesSchema.parse(parseJson(row.branches)) : [];
  const everyone = joined(message.from, message.participants);
  const member = (branch: readonly string[]) => message.from.every((address) => branch.includes(address));
  let index = branches.length === 0 ? 0 : message.allowed ? 0 : branches.findIndex(member);
  if (index < 0) index = branches.length;
  if (index >= MAX_BRANCHES) return null;
  branches[index] = joined(branches[index] ?? [], everyone);
  WRITE.run(sql, name, JSON.stringify(branches));
  return index;
}
