import { BatonError } from "../core/errors.js";

/** The lease a running turn holds on its session. `expiresAt` is ms since the epoch, by the store's clock. */
export interface Lease {
  token: string;
  expiresAt: number;
}

/** The lease length when nothing else is configured: long enough for a slow model step between appends. */
export const DEFAULT_LEASE_TTL_MS = 120_000;

/** `ok`: the write may go ahead. `busy`: another turn holds the session. `lost`: the presented lease is stale. */
export type LeaseVerdict = "ok" | "busy" | "lost";

const isLive = (lease: Lease | null, now: number): lease is Lease => lease !== null && now < lease.expiresAt;

/**
 * Judges a write against the session's lease at time `now`. Without a presented lease the write is refused
 * only while a live lease exists; with one, it must be the live lease itself.
 */
export function judgeLease(current: Lease | null, presented: string | undefined, now: number): LeaseVerdict {
  if (presented === undefined) return isLive(current, now) ? "busy" : "ok";
  return isLive(current, now) && current.token === presented ? "ok" : "lost";
}

/** The error a refused write becomes. */
export function leaseError(verdict: Exclude<LeaseVerdict, "ok">, sessionId: string): BatonError {
  return verdict === "busy"
    ? new BatonError("session_busy", `Session ${sessionId} is busy with another turn`)
    : new BatonError("lease_lost", `The turn's lease on session ${sessionId} lapsed or was taken over`);
}

/** The refusal of a message a newer one replaced while it waited (`doubleTexting: "latest"`). */
export const replacedError = (sessionId: string): BatonError =>
  new BatonError(
    "message_replaced",
    `A newer message on session ${sessionId} replaced this one while it waited`,
  );

/** Reads a positive lease length in ms from an env string, or `undefined` when unset or malformed. */
export function parseLeaseTtl(raw: string | undefined): number | undefined {
  const ms = Number(raw);
  return raw !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
