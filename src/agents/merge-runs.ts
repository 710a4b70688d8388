import type { Event } from "../core/event.js";

type Pull = { index: number; result: IteratorResult<Event> };

/**
 * Interleaves several agent runs in the order their events arrive. Each run is pulled again only after
 * the consumer took its last event, so the runner has stored an event before that run goes on (ADK's
 * `_merge_agent_run` guarantee). The first failure ends the merge: the other runs are closed and the
 * error is thrown.
 */
export async function* mergeRuns(runs: readonly AsyncGenerator<Event>[]): AsyncGenerator<Event> {
  const pending = new Map<number, Promise<Pull>>();
  const pull = (index: number, run: AsyncGenerator<Event>) => {
    const next = run.next().then((result) => ({ index, result }));
    // A run that fails after the merge has ended must not surface as an unhandled rejection.
    next.catch(() => undefined);
    pending.set(index, next);
  };
  runs.forEach((run, index) => {
    pull(index, run);
  });
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      const run = runs[index];
      if (result.done || run === undefined) {
        pending.delete(index);
        continue;
      }
      yield result.value;
      pull(index, run);
    }
  } finally {
    // Early exit (a failure, or the consumer stopped): close the runs still going, without waiting on them.
    for (const index of pending.keys()) runs[index]?.return(undefined).catch(() => undefined);
  }
}
