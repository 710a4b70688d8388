/**
 * The bench's reference workload, timed beside the turns so a reader can tell Baton from the machine's
 * speed at that moment: a JSON round trip (serialise, then parse) of a session's events, in µs.
 */
export function reference(events: unknown): number {
  const t0 = process.hrtime.bigint();
  JSON.parse(JSON.stringify(events));
  return Number(process.hrtime.bigint() - t0) / 1_000;
}
