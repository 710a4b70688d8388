/** Sessions of one starting size, handed out in turn and replaced (untimed) before they grow far. */
import type { Event } from "../../src/core/event.js";
import { type BenchApps, USER_ID } from "./bench-tree.js";

/** Turns a session serves before it is replaced: it grows by 2 events a turn, so by at most 10. */
const USES = 5;
let made = 0;

export class SessionPool {
  readonly #apps: BenchApps;
  readonly #appName: string;
  readonly #seed: readonly Event[];
  #current = "";
  #used = USES;

  constructor(apps: BenchApps, appName: string, seed: readonly Event[]) {
    this.#apps = apps;
    this.#appName = appName;
    this.#seed = seed;
  }

  /** The session for the next turn: the current one, or a fresh copy of the seed once it is used up. */
  async next(): Promise<string> {
    if (this.#used >= USES) {
      const old = this.#current;
      if (old !== "")
        await this.#apps.store.deleteSession({ appName: this.#appName, userId: USER_ID, sessionId: old });
      this.#current = `s-${++made}`;
      const key = { appName: this.#appName, userId: USER_ID, sessionId: this.#current };
      await this.#apps.store.createSession({ ...key, events: this.#seed });
      this.#used = 0;
    }
    this.#used++;
    return this.#current;
  }
}
