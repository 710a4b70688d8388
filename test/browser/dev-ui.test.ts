import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CHROMIUM } from "./global-setup.js";
import { type DevWorker, startDevWorker } from "./start-dev-worker.js";

const skipReason = inject("browserSkipReason");
if (skipReason) console.warn(`[browser] skipped: ${skipReason}`);

/** Git-ignored; the screenshot is the test's artifact. */
const ARTIFACTS = new URL("../../test-results/dev-ui/", import.meta.url);
const ICONS = createRequire(import.meta.url).resolve(
  "@fontsource/material-icons/files/material-icons-latin-400-normal.woff2",
);

/** Nothing leaves 127.0.0.1: the UI's icon fonts come from an npm package, other fonts fall back. */
async function stayLocal(page: Page): Promise<void> {
  const icons = await readFile(ICONS);
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) =>
    /material(icons|symbols)/.test(route.request().url())
      ? route.fulfill({ body: icons, contentType: "font/woff2" })
      : route.abort(),
  );
}

describe.skipIf(skipReason !== "")("ADK's dev UI on wrangler dev", () => {
  let worker: DevWorker;
  let browser: Browser;

  beforeAll(async () => {
    [worker, browser] = await Promise.all([
      startDevWorker(),
      chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.dispose();
  });

  it("chats with the demo app and shows the transfer, the specialist's answer and the turn's trace", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);

    await page.goto(`${worker.origin}/`);
    await page.waitForURL(/\/dev-ui\/\?app=demo/);
    await expect.poll(() => page.getByText("demo", { exact: true }).first().isVisible()).toBe(true);

    const box = page.getByPlaceholder("Type a message...");
    await box.fill("I need a refund for my last invoice");
    await box.press("Enter");

    await page.getByText("I am billing").first().waitFor();
    await page.getByText("concierge → billing").first().waitFor();
    await page.getByText('transfer_to_agent("billing")').first().waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL("transfer.png", ARTIFACTS).pathname });

    expect(pageErrors).toEqual([]);
  });
});
