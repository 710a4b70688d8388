import type { SessionObject } from "../objects/session-object.js";
import type { LiveCallDeps } from "./live-call.js";

/**
 * What gives a session object's live calls their app (`/run_live`, decision 055): `createWorker` registers
 * one beside its turn host, under the same name, so the object finds both by the name the Worker sends.
 */
export type LiveHost = (
  env: Record<string, unknown>,
  appName: string,
  inside: { name: string; object: SessionObject },
) => LiveCallDeps;

const hosts = new Map<string, LiveHost>();

/** Registers `host` under the turn host's `name` (`registerTurnHost`'s answer). */
export function registerLiveHost(name: string, host: LiveHost): void {
  hosts.set(name, host);
}

/** The live host registered under `name` in this isolate, if any. */
export const liveHost = (name: string): LiveHost | undefined => hosts.get(name);
