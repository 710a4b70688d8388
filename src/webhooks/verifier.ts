import type { Verdict } from "../core/webhook.js";

export interface SecretOptions {
  /** The Worker secret holding the key or token. */
  secretName: string;
}

export interface ToleranceOptions extends SecretOptions {
  /** How far the signed timestamp may be from now, in seconds. Default 300 (each provider's own default). */
  toleranceSeconds?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

export const refused = (reason: string): Verdict => ({ ok: false, reason });
export const accepted: Verdict = { ok: true };

/** Checks a Unix-seconds timestamp against now, both ways; `null` when it is within tolerance. */
export function staleness(
  raw: string | null | undefined,
  nowMs: number,
  toleranceSeconds: number,
): string | null {
  if (raw === null || raw === undefined || !/^\d{1,12}$/.test(raw)) return "missing or malformed timestamp";
  const skew = Math.abs(nowMs / 1000 - Number(raw));
  return skew > toleranceSeconds ? `timestamp outside the ${toleranceSeconds} s tolerance` : null;
}

/** A non-empty string field of a JSON object, if it has one. */
export function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field: unknown = Reflect.get(value, key);
  return typeof field === "string" && field !== "" ? field : undefined;
}
