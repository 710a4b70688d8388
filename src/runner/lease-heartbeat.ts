import type { SessionKey } from "../core/session.js";
import type { SessionStore } from "../core/session-store.js";

/**
 * Keeps a turn's lease alive while its steps run: renews it every third of its length, so a model or
 * tool call far longer than the TTL keeps the session. Returns `stop`. A refused renewal (the lease
 * lapsed or was taken) stops the beat and is logged; the turn's next append then fails `lease_lost`
 * and the runner records that. A real timer, not `services.sleep`: a test's no-wait sleep would spin.
 */
export function startHeartbeat(
  store: SessionStore,
  turn: { key: SessionKey; lease: string; leaseTtlMs: number | undefined },
  log: (message: string) => void,
): () => void {
  const { key, lease, leaseTtlMs } = turn;
  if (store.renewLease === undefined || leaseTtlMs === undefined) return () => undefined;
  const renew = store.renewLease.bind(store);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = (): void => {
    timer = setTimeout(
      () =>
        void renew(key, lease).then(
          () => stopped || beat(),
          (error: unknown) => log(`Lease heartbeat on ${key.sessionId} stopped: ${String(error)}`),
        ),
      Math.max(1, Math.floor(leaseTtlMs / 3)),
    );
  };
  beat();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
