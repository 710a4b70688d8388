import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { otlpSpans, startCollector } from "../support/otlp-collector.js";
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
  let collector: Awaited<ReturnType<typeof startCollector>>;

  beforeAll(async () => {
    collector = await startCollector();
    [worker, browser] = await Promise.all([
      startDevWorker({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }),
      // A fake microphone (a tone), granted without a prompt: the call button's test speaks through it.
      chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
      }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.dispose();
    await collector?.close();
  });

  it("chats with the demo app and shows the transfer, the specialist's answer and the turn's trace", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);

    // `/` leads to the dev UI; with two apps (demo, workflow) the UI opens on none, so the test picks demo.
    await page.goto(`${worker.origin}/`);
    await page.waitForURL(/\/dev-ui\//);
    await page.goto(`${worker.origin}/dev-ui/?app=demo`);
    await expect.poll(() => page.getByText("demo", { exact: true }).first().isVisible()).toBe(true);

    const box = page.getByPlaceholder("Type a message...");
    await box.fill("I need a refund for my last invoice");
    await box.press("Enter");

    const visible = (text: string) => page.getByText(text).filter({ visible: true }).first();
    await visible("I am billing").waitFor();
    await visible("concierge → billing").waitFor();
    await visible('transfer_to_agent("billing")').waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL("transfer.png", ARTIFACTS).pathname });

    // The turn's trace, from the session's store: both agent runs, their model calls, the transfer tool.
    await page.getByText("Traces", { exact: true }).click();
    const shown = (name: string) => page.getByText(name, { exact: true }).filter({ visible: true });
    for (const name of ["concierge", "billing", "transfer_to_agent"]) await shown(name).first().waitFor();
    expect(await shown("call_llm").count()).toBe(2);
    await page.screenshot({ path: new URL("trace.png", ARTIFACTS).pathname });
    // With the trace loaded the UI flags events whose model call changed the system instruction: billing's
    // first call follows the concierge's, another agent's, which the UI Baton serves does not count as a
    // change (src/cli/instruction-check.ts).
    await page.getByText("Events", { exact: true }).click();
    await visible("I am billing").waitFor();
    expect(await page.getByText("Performance", { exact: true }).filter({ visible: true }).count()).toBe(0);

    // The same spans went to the OTLP collector from the Worker, after the response.
    await collector.received(1);
    const exported = collector.posts.flatMap((post) => otlpSpans(post.body)).map((span) => span.name);
    expect(exported).toEqual(
      expect.arrayContaining([
        "invocation",
        "invoke_agent concierge",
        "invoke_agent billing",
        "call_llm",
        "execute_tool transfer_to_agent",
      ]),
    );
    expect(pageErrors).toEqual([]);
  });

  it("calls the demo app with the call button: /run_live hears the fake microphone and the concierge answers", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);
    const sockets: string[] = [];
    page.on("websocket", (socket) => sockets.push(socket.url()));
    await page.goto(`${worker.origin}/dev-ui/?app=demo`);
    await expect.poll(() => page.getByText("demo", { exact: true }).first().isVisible()).toBe(true);

    await page.locator(".audio-rec-btn").click();
    // The demo live model answers every 1.5 s of audio: what it heard, then its answer as a transcript.
    const visible = (text: RegExp) => page.getByText(text).filter({ visible: true }).first();
    await visible(/s of audio\)/).waitFor({ timeout: 30_000 });
    await visible(/I am concierge/).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: new URL("call.png", ARTIFACTS).pathname });
    await page.locator(".audio-rec-btn").click();
    expect(sockets).toEqual([expect.stringMatching(/\/run_live\?app_name=demo&user_id=[^&]+&session_id=/)]);
    expect(pageErrors).toEqual([]);
  });

  it("shows the artifact a turn saves in the Artifacts tab (the weather specialist's save_report)", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);
    await page.goto(`${worker.origin}/dev-ui/?app=demo`);
    const box = page.getByPlaceholder("Type a message...");
    await box.fill("Save a weather report for Paris");
    await box.press("Enter");
    await page.getByText("save_report returned").filter({ visible: true }).first().waitFor();

    await page.getByText("Artifacts", { exact: true }).click();
    const card = page.locator("app-artifact-tab .artifact-card").filter({ hasText: "weather-paris.svg" });
    await card.waitFor();
    // The card previews the SVG the tool saved, fetched from the artifact routes.
    await expect
      .poll(() => card.locator("img").first().getAttribute("src"))
      .toMatch(/^data:image\/svg\+xml;base64,/);
    await page.screenshot({ path: new URL("artifacts.png", ARTIFACTS).pathname });
    expect(pageErrors).toEqual([]);
  });

  it("adds the session to an eval set from the Evals tab, runs it and shows a pass", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);
    await page.goto(`${worker.origin}/dev-ui/?app=demo`);
    const box = page.getByPlaceholder("Type a message...");
    await box.fill("What is the weather in Lisbon?");
    await box.press("Enter");
    await page.getByText("Here is what I found").filter({ visible: true }).first().waitFor();

    await page.getByText("Evals", { exact: true }).click();
    const evals = page.locator("app-eval-tab");
    const dialog = page.locator("mat-dialog-container");
    // A new set (POST /dev/apps/demo/eval-sets), then the current session as its case (add_session).
    await evals.getByRole("button", { name: /New/ }).click();
    await dialog.locator("input").fill("browser_set");
    await dialog.getByRole("button", { name: "Create" }).click();
    await evals.getByText("browser_set", { exact: true }).click();
    await evals.getByRole("button", { name: /From Current Session/ }).click();
    await expect.poll(() => dialog.locator("input").inputValue()).toBe("What_is_the_weather_in_Lisbon");
    await dialog.getByRole("button", { name: "Create" }).click();
    await evals.getByText("What_is_the_weather_in_Lisbon", { exact: true }).waitFor();

    // Run it with the metrics the UI lists from metrics-info (run_eval), and read the run's verdict.
    await evals.getByRole("button", { name: /Run All/ }).click();
    await dialog.getByText("Tool Trajectory", { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Start" }).click();
    await evals.getByText("1 PASS").waitFor();
    expect(await evals.getByText(/FAIL/).count()).toBe(0);
    await evals.getByText("2/2").waitFor();
    await page.screenshot({ path: new URL("evals.png", ARTIFACTS).pathname });
    expect(pageErrors).toEqual([]);
  });

  it("draws the workflow app as its graph and lights the nodes a turn ran, by the events' node paths", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await stayLocal(page);
    await page.goto(`${worker.origin}/dev-ui/?app=workflow`);
    const box = page.getByPlaceholder("Type a message...");
    await box.fill("What is the weather in Paris?");
    await box.press("Enter");
    await page.getByText("Done: Here is what I found").filter({ visible: true }).first().waitFor();

    // The selected (last) event's panel draws the app's graph (build_graph_image) with the path it took.
    const lit = () => page.locator("svg g.node:not(.unvisited-node) title").allTextContents();
    await expect.poll(lit).toEqual(["__START__", "classify", "forecaster", "wrap_up", "__END__"]);
    const drawn = await page.locator("svg g.node text").allTextContents();
    for (const name of ["classify", "forecaster", "billing_desk", "ask_user", "wrap_up", "START", "END"])
      expect(drawn.join(" ")).toContain(name);
    expect(await page.locator("svg g.node.unvisited-node").count()).toBe(3);
    await page.screenshot({ path: new URL("workflow-graph.png", ARTIFACTS).pathname });
    expect(pageErrors).toEqual([]);
  });
});
