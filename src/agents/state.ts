import type { StateMap } from "../core/state.js";

/**
 * A read-write view of session state for callbacks and tools. Writes land both in the live value and in
 * a pending delta, which goes out on the next event those writes belong to (ADK-SEMANTICS §4.2).
 */
export class State {
  constructor(
    private readonly base: StateMap,
    readonly delta: StateMap = {},
  ) {}

  get<T = unknown>(key: string): T | undefined {
    // SAFETY: state values are the caller's own JSON; the type parameter is the caller's claim.
    return (key in this.delta ? this.delta[key] : this.base[key]) as T | undefined;
  }

  has(key: string): boolean {
    return key in this.delta || key in this.base;
  }

  set(key: string, value: unknown): void {
    this.delta[key] = value;
  }

  /** The merged view: base state overlaid with the pending writes. */
  toObject(): StateMap {
    return { ...this.base, ...this.delta };
  }

  get hasDelta(): boolean {
    return Object.keys(this.delta).length > 0;
  }
}
