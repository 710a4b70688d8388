import { ASSETS_ROOT } from "../../scripts/fetch-dev-ui.js";
import { type DemoWorker, startDemoWorker } from "../support/demo-worker.js";

export type DevWorker = DemoWorker;

/** The demo Worker under `wrangler dev` as `npm run dev` runs it (dev UI assets, DEV_UI), on a free port. */
export const startDevWorker = (vars: Record<string, string> = {}): Promise<DevWorker> =>
  startDemoWorker({ ALLOW_UNAUTHENTICATED: "true", DEV_UI: "true", ...vars }, { assets: ASSETS_ROOT });
