import { BatonError } from "../core/errors.js";

/**
 * ADK 2.x `RetryConfig` of a workflow node; delays in seconds. Unset fields take ADK's defaults: 5 attempts
 * (the first included), 1 s first delay, 60 s at most, ×2 per attempt, jitter 1.0.
 */
export interface RetryConfig {
  /** Attempts in all, the first included; 0 or 1: no retry. Default 5. */
  maxAttempts?: number;
  /** Seconds before the first retry. Default 1. */
  initialDelay?: number;
  /** The longest wait between attempts, in seconds. Default 60. */
  maxDelay?: number;
  /** How much the wait grows per attempt. Default 2. */
  backoffFactor?: number;
  /** Randomness of the wait, as a fraction of it; 0 for none. Default 1. */
  jitter?: number;
  /**
   * Retry only these failures: an error's class name or `name` (`"TypeError"`), or a Baton error code
   * (`"MODEL_UNAVAILABLE"`). Left out: every failure is retried.
   */
  exceptions?: readonly string[];
}

const DEFAULTS = { maxAttempts: 5, initialDelay: 1, maxDelay: 60, backoffFactor: 2, jitter: 1 };

/** Refuses a config ADK would refuse, when the node is built rather than when it first fails. */
export function checkRetryConfig(nodeName: string, config: RetryConfig): RetryConfig {
  const numbers = [
    config.maxAttempts,
    config.initialDelay,
    config.maxDelay,
    config.backoffFactor,
    config.jitter,
  ];
  if (numbers.some((n) => n !== undefined && (!Number.isFinite(n) || n < 0)))
    throw new BatonError(
      "invalid_config",
      `Node "${nodeName}": retryConfig numbers must be finite and >= 0.`,
    );
  if (config.exceptions?.some((e) => typeof e !== "string" || e === ""))
    throw new BatonError("invalid_config", `Node "${nodeName}": retryConfig.exceptions must be names.`);
  return config;
}

/** The names a failure answers to: its class, its `name`, and its Baton code. */
export function errorNames(error: unknown): string[] {
  if (!(error instanceof Error)) return [typeof error];
  const names = [error.constructor.name, error.name];
  if (error instanceof BatonError) names.push(error.code);
  return [...new Set(names.filter((n) => n !== ""))];
}

/** Whether the attempt numbered `attempt` (1-based) that failed with `error` gets another. */
export function shouldRetry(config: RetryConfig, attempt: number, error: unknown): boolean {
  if (attempt >= (config.maxAttempts ?? DEFAULTS.maxAttempts)) return false;
  const only = config.exceptions;
  return only === undefined || errorNames(error).some((name) => only.includes(name));
}

/**
 * Seconds to wait after the failed attempt `attempt`: `initialDelay × backoffFactor^(attempt-1)`, spread
 * by the jitter around that value and capped at `maxDelay`, as ADK computes it.
 */
export function retryDelaySeconds(config: RetryConfig, attempt: number, random: () => number): number {
  const initial = config.initialDelay ?? DEFAULTS.initialDelay;
  const max = config.maxDelay ?? DEFAULTS.maxDelay;
  const factor = config.backoffFactor ?? DEFAULTS.backoffFactor;
  const jitter = config.jitter ?? DEFAULTS.jitter;
  let delay = initial * factor ** Math.max(0, attempt - 1);
  if (jitter > 0) {
    delay = Math.min(delay, max / (1 + jitter));
    const span = jitter * delay;
    delay = Math.max(0, delay - span + random() * 2 * span);
  }
  return Math.min(delay, max);
}
