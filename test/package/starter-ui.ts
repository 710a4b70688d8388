/**
 * ADK's dev UI as a new project's `npm run dev` serves it, driven in headless Chromium (Debian's, through
 * playwright-core, as test/browser does): a turn with a transfer, its trace, a saved artifact, an eval set
 * made from the session and run. Nothing leaves 127.0.0.1: other requests (web fonts) are aborted.
 */
import { existsSync } from "node:fs";
import { chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser part cannot run here, or "" when it can. */
export const browserSkipReason = (): string =>
  existsSync(CHROMIUM) ? "" : `${CHROMIUM} is missing (apt-get install chromium)`;

/** What the tour saw. */
export interface Tour {
  /** The spans of the turn's trace the Traces view showed, by name, and how many `call_llm` spans. */
  traced: string[];
  modelCalls: number;
  /** "Performance" warnings the chat shows once the trace is loaded (one per flagged event). */
  performanceWarnings: number;
  /** Whether the Artifacts tab showed the file the tool saved. */
  artifactShown: boolean;
  /** The verdict line of the eval run (`1 PASS`), and whether any case failed. */
  evalPassed: boolean;
  evalFailed: boolean;
  pageErrors: string[];
}

const visible = (page: Page, text: string, exact = false) =>
  page.getByText(text, { exact }).filter({ visible: true }).first();

async function send(page: Page, text: string, answered: string): Promise<void> {
  const box = page.getByPlaceholder("Type a message...");
  await box.fill(text);
  await box.press("Enter");
  await visible(page, answered).waitFor();
}

/** Drives the UI of `origin`'s app `app` through a billing turn, its trace, an artifact and an eval run. */
export async function devUiTour(origin: string, app: string, screenshot: string): Promise<Tour> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    page.setDefaultTimeout(120_000);
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());

    // `/` redirects to the UI, which lists the project's app and opens it.
    await page.goto(`${origin}/`);
    await page.waitForURL(new RegExp(`/dev-ui/\\?app=${app}`));
    await send(page, "Is invoice 42 paid?", "lookup_invoice returned");

    // The turn's trace: both agents, the tool, three model calls. Loading it is also when the UI decides
    // which events get a "Performance" warning (a changed system instruction between model calls).
    await page.getByText("Traces", { exact: true }).click();
    const traced: string[] = [];
    for (const name of ["concierge", "billing", "transfer_to_agent", "lookup_invoice"]) {
      await visible(page, name, true).waitFor();
      traced.push(name);
    }
    const modelCalls = await page.getByText("call_llm", { exact: true }).filter({ visible: true }).count();
    await page.getByText("Events", { exact: true }).click();
    await visible(page, "lookup_invoice returned").waitFor();
    const performanceWarnings = await page
      .getByText("Performance", { exact: true })
      .filter({ visible: true })
      .count();

    // A tool that saves a file: the Artifacts tab lists it.
    await send(page, "Download invoice 42", "download_invoice returned");
    await page.getByText("Artifacts", { exact: true }).click();
    const card = page.locator("app-artifact-tab").getByText("invoice-42.txt").first();
    const artifactShown = await card.waitFor().then(
      () => true,
      () => false,
    );

    // The Evals tab: a new set, the session as its case, a run with the metrics the UI lists.
    await page.getByText("Evals", { exact: true }).click();
    const evals = page.locator("app-eval-tab");
    const dialog = page.locator("mat-dialog-container");
    // A name of its own: the project's simulated bucket keeps sets between runs of `npm run dev`.
    const setName = `starter_set_${Date.now().toString(36)}`;
    await evals.getByRole("button", { name: /New/ }).click();
    await dialog.locator("input").fill(setName);
    await dialog.getByRole("button", { name: "Create" }).click();
    await evals.getByText(setName, { exact: true }).click();
    await evals.getByRole("button", { name: /From Current Session/ }).click();
    // The UI names the case after the session's first message once it has read the session.
    await page.waitForFunction('(document.querySelector("mat-dialog-container input")?.value ?? "") !== ""');
    await dialog.getByRole("button", { name: "Create" }).click();
    await evals.getByRole("button", { name: /Run All/ }).click();
    await dialog.getByText("Tool Trajectory", { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Start" }).click();
    const evalPassed = await evals
      .getByText("1 PASS")
      .waitFor()
      .then(
        () => true,
        () => false,
      );
    const evalFailed = (await evals.getByText(/FAIL/).count()) > 0;
    await page.screenshot({ path: screenshot });
    return { traced, modelCalls, performanceWarnings, artifactShown, evalPassed, evalFailed, pageErrors };
  } finally {
    await browser.close();
  }
}
