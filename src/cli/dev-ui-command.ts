import { DEV_UI_PACKAGE, DEV_UI_VERSION, fetchDevUi, writeOfflinePage } from "./dev-ui-assets.js";

/**
 * Fetches the dev UI into `root` and says what it did; offline (or on any failure) it warns, leaves the page
 * that names `command` to run again, and still returns 0: the API works without the UI.
 */
export async function devUiCommand(root: string, command: string): Promise<number> {
  try {
    const done = await fetchDevUi(root);
    if (done === "fetched") console.log(`[dev-ui] ${DEV_UI_PACKAGE}@${DEV_UI_VERSION} in ${root}`);
  } catch (error) {
    console.warn(`[dev-ui] not fetched: ${error instanceof Error ? error.message : String(error)}`);
    await writeOfflinePage(root, command);
  }
  return 0;
}
