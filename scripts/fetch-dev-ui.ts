/**
 * ADK's dev UI for this repo's `npm run dev` and the browser test, in the git-ignored `.dev-ui-assets/`:
 * the `baton-dev-ui` bin's work (src/cli/dev-ui-assets.ts, decision 006) at this checkout's root.
 */
import { fileURLToPath } from "node:url";
import { fetchDevUi as fetchInto } from "../src/cli/dev-ui-assets.js";
import { devUiCommand } from "../src/cli/dev-ui-command.js";

export { DEV_UI_PACKAGE, DEV_UI_VERSION } from "../src/cli/dev-ui-assets.js";

/** The assets root wrangler serves (`wrangler dev --assets`); the UI lives in its `dev-ui/` folder. */
export const ASSETS_ROOT = fileURLToPath(new URL("../.dev-ui-assets/", import.meta.url));

/** Fetches, verifies and unpacks the pinned UI into `ASSETS_ROOT/dev-ui` (nothing when it is there). */
export const fetchDevUi = async (): Promise<void> => {
  await fetchInto(ASSETS_ROOT);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await devUiCommand(ASSETS_ROOT, "node --import tsx scripts/fetch-dev-ui.ts");
