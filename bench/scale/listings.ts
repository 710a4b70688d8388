/**
 * Sessions by the thousand (decision 046): one user grown to 10,000 sessions and 1,000 users of one session
 * each, created over HTTP; then the listing's first page against a 10-session user's, and whole listings
 * walked page by page.
 */
import { BOUNDED_APP } from "../http/bench-env.js";
import { interleaved, ms, percentile, verdict } from "../http/rounds.js";
import { median } from "../timing.js";
import { inPool, type ScaleClient } from "./scale-client.js";

export interface ListingSizes {
  sessions: number;
  users: number;
}

const CONCURRENCY = 16;
const sessionsPath = (userId: string) => `/apps/${BOUNDED_APP}/users/${userId}/sessions`;

/** Creates `count` sessions of `userId` (or of `count` users, one each), 16 at a time; sessions per second. */
async function create(client: ScaleClient, count: number, owner: (i: number) => string): Promise<number> {
  const wall = await inPool(count, CONCURRENCY, async (i) => {
    const path = sessionsPath(owner(i));
    // A create the dev proxy dropped after it reached the Worker finds its session made: that is a create.
    const answer = await client.send("POST", path, { sessionId: `s${i}` }, (a) => a.status === 409);
    if (answer.status !== 200) throw new Error(`create s${i}: ${answer.status} ${answer.text.slice(0, 200)}`);
  });
  return count / (wall / 1000);
}

/** Every page of `userId`'s listing of `pageSize`, following the tokens: the ids listed and the wall time. */
async function walk(client: ScaleClient, userId: string, pageSize: number) {
  const t0 = performance.now();
  const ids: string[] = [];
  const pages: number[] = [];
  let token: string | undefined;
  do {
    const query = `?pageSize=${pageSize}${token ? `&pageToken=${token}` : ""}`;
    const { body, answer } = await client.json<{ id: string }[]>(`${sessionsPath(userId)}${query}`);
    ids.push(...body.map((s) => s.id));
    pages.push(answer.ms);
    const next = answer.headers["next-page-token"];
    token = typeof next === "string" ? next : undefined;
  } while (token);
  return { ids, pages, ms: performance.now() - t0 };
}

/** Grows the users, times the listings and prints the figures; the timed rounds are interleaved. */
export async function listingBench(client: ScaleClient, sizes: ListingSizes): Promise<void> {
  const small = await create(client, 10, () => "few");
  const perSecond = await create(client, sizes.sessions, () => "many");
  const usersPerSecond = await create(client, sizes.users, (i) => `user-${i}`);
  console.log(
    `  created ${sizes.sessions} sessions of one user at ${perSecond.toFixed(0)}/s and ${sizes.users} users' ` +
      `sessions at ${usersPerSecond.toFixed(0)}/s (${CONCURRENCY} at a time; the 10-session user at ${small.toFixed(0)}/s)`,
  );

  const firstPage = (userId: string) => async () =>
    (await client.json<unknown[]>(sessionsPath(userId))).answer.ms;
  const [few, many] = await interleaved(
    [
      { label: "10", turn: firstPage("few") },
      { label: "many", turn: firstPage("many") },
    ],
    { warmup: 10, rounds: 100 },
  );
  if (!few || !many) throw new Error("no listing rounds");
  const ratio = median(many) / median(few);
  console.log(
    `  first page (100) of ${sizes.sessions} sessions: p50 ${ms(percentile(many, 50))}, p99 ${ms(percentile(many, 99))}` +
      ` ${verdict(median(many), 100)} (target ≤ 100 ms p50); of 10 sessions p50 ${ms(percentile(few, 50))},` +
      ` p99 ${ms(percentile(few, 99))}: ${ratio.toFixed(2)}× ${verdict(ratio, 1.5)} (target ≤ 1.5×)`,
  );

  const users = Array.from(
    { length: Math.min(200, sizes.users) },
    (_, i) => `user-${i * Math.floor(sizes.users / 200 || 1)}`,
  );
  const perUser: number[] = [];
  for (const user of users) perUser.push(await firstPage(user)());
  console.log(
    `  first page of one of ${sizes.users} users (${users.length} of them): p50 ${ms(percentile(perUser, 50))},` +
      ` p99 ${ms(percentile(perUser, 99))}`,
  );

  for (const pageSize of [100, 1000]) {
    const walks = [];
    for (let round = 0; round < 3; round++) walks.push(await walk(client, "many", pageSize));
    const listed = new Set(walks[0]?.ids);
    const complete = listed.size === sizes.sessions && walks.every((w) => w.ids.length === sizes.sessions);
    if (!complete)
      throw new Error(`a walk of pages of ${pageSize} listed ${walks.map((w) => w.ids.length)} sessions`);
    const times = walks.map((w) => w.ms);
    const pages = walks.flatMap((w) => w.pages);
    console.log(
      `  the whole listing in pages of ${pageSize} (${Math.ceil(sizes.sessions / pageSize)} pages, each session once):` +
        ` median ${ms(times)}, worst ${ms(Math.max(...times))} ${verdict(Math.max(...times), 5000)} (target ≤ 5 s);` +
        ` a page p50 ${ms(percentile(pages, 50))}, p99 ${ms(percentile(pages, 99))}`,
    );
  }
}
