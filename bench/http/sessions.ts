/** The bench's small sessions: made in pools, so that each grows by only a few events over a run. */
import type { BenchClient, BenchSession } from "./client.js";

/** Events a small session starts with. */
export const SMALL = 10;
/** Small sessions per case, used in turn. */
export const POOL = 16;

/** `count` sessions of `size` events each, named `<name>-<i>`, of one user. */
export async function sessions(
  client: BenchClient,
  appName: string,
  name: string,
  size: number,
  count: number,
): Promise<BenchSession[]> {
  const made: BenchSession[] = [];
  for (let i = 0; i < count; i++)
    made.push(await client.createSession({ appName, userId: "bench-user", sessionId: `${name}-${i}` }, size));
  return made;
}
