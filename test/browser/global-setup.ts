import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { fetchDevUi } from "../../scripts/fetch-dev-ui.js";

/** Debian's Chromium; playwright-core drives it (no browser download). */
export const CHROMIUM = "/usr/bin/chromium";

/** Installs Chromium with apt when it is missing and we are root; returns why not, if it cannot. */
function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.getuid?.() !== 0) return `${CHROMIUM} is missing and apt-get needs root`;
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", env });
  } catch (error) {
    return `apt-get install chromium failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return existsSync(CHROMIUM) ? undefined : `apt-get installed no ${CHROMIUM}`;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Set when the browser test cannot run here, with the reason. */
    browserSkipReason: string;
  }
}

/** Chromium and ADK's dev UI files, before the browser test runs. */
export default async function setup(project: TestProject): Promise<void> {
  let reason = ensureChromium() ?? "";
  if (reason === "") {
    reason = await fetchDevUi().then(
      () => "",
      (error: unknown) => `ADK's dev UI could not be fetched: ${String(error)}`,
    );
  }
  project.provide("browserSkipReason", reason);
}
