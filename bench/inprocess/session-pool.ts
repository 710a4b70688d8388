/** Sessions of one starting size, handed out in turn and replaced (untimed) before they grow far. */
import type { Event } from "../../src/core/event.js";
import { type BenchApps, USER_ID } from "./bench-tree.js";

/**
 * Turns a session serves before it is replaced: it grows by 2 events a turn, so by at most 10 events or 4%
 * of its size, whichever is more (a 10,000-event session is not rebuilt every 5 turns, whose garbage would
 * land in the timed turns of every case).
 */
const usesFor = (size: number): number => Math.max(5, Math.floor((size * 0.04) / 2));
let made = 0;

export class SessionPool {
  readonly #apps: BenchApps;
  readonly #appName: string;
  readonly #seed: readonly Event[];
  readonly #uses: number;
  #current = "";
  #used: number;

  constructor(apps: BenchApps, appName: string, seed: readonly Event[]) {
    this.#apps = apps;
    this.#appName = appName;
    this.#seed = seed;
    this.#uses = usesFor(seed.length);
    this.#used = this.#uses;
  }

  /** The session for the next turn: the current one, or a fresh copy of the seed once it is used up. */
  async next(): Promise<string> {
    if (this.#used >= this.#uses) {
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
