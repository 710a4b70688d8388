/**
 * The CPU time workerd has spent, read from Linux's per-thread scheduler statistics: every workerd process
 * descended from this one (wrangler dev runs the Worker, its Durable Objects and its proxy in them).
 * Wall time on a shared machine swings with whatever else runs; CPU time mostly does not.
 */
import { readdirSync, readFileSync } from "node:fs";

export const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // A process or thread that ended between the listing and the read.
  }
};

/** The pids of this process's descendants whose command is workerd. */
export function workerdPids(): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // `pid (comm) state ppid …`; comm may hold spaces or parentheses, so split at the last ")".
    const close = stat?.lastIndexOf(")") ?? -1;
    if (!stat || close < 0) continue;
    names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
    parents.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => name.startsWith("workerd") && descends(pid)).map(([pid]) => pid);
}

/** A reader of workerd's total CPU time in ms, or `undefined` where /proc has no scheduler statistics. */
export function workerdCpu(): (() => number) | undefined {
  const first = workerdPids()[0];
  if (first === undefined || read(`/proc/${first}/schedstat`) === undefined) return undefined;
  return () => {
    let ns = 0;
    // Listed again on every read: wrangler starts its proxy's workerd after the Worker's is ready.
    for (const pid of workerdPids()) {
      let tasks: string[] = [];
      try {
        tasks = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue; // The process ended.
      }
      for (const tid of tasks) ns += Number(read(`/proc/${pid}/task/${tid}/schedstat`)?.split(" ")[0] ?? 0);
    }
    return ns / 1e6;
  };
}
