/**
 * Every shell block of the README and the guides that is not marked `no-run` runs here, as written,
 * against the demo Worker under `wrangler dev` with the vars `npm run dev` sets (a fresh, in-memory one per
 * page, so each page's ids are its own). Blocks run in page order, as a reader types them; `127.0.0.1:8787`
 * is the test server's address. A command that fails, or an HTTP answer of 500 or more, fails the test.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { devVars, guides } from "../../../scripts/docs/guides.js";
import { type DemoWorker, startDemoWorker } from "../../support/demo-worker.js";

const DOC_ORIGIN = "http://127.0.0.1:8787";

/**
 * Commands the test does itself (it serves the Worker) or that would reach past the page (install into,
 * or serve from, this checkout): a block holding one must be marked `no-run`, saying in the page why.
 */
const NOT_HERE =
  /^\s*(npm (ci|install|i|test|create|run dev)\b|npx wrangler (dev|deploy)\b|wrangler (dev|deploy)\b|cd\s)/m;

/** Run before each block: `set -euo pipefail`, and curl failing on a 5xx or no answer. */
const PRELUDE = await readFile(join(import.meta.dirname, "doc-prelude.sh"), "utf8");

const pages = guides()
  .map((guide) => ({
    path: guide.path,
    blocks: guide.blocks.filter((b) => (b.lang === "sh" || b.lang === "bash") && b.runs),
  }))
  .filter((page) => page.blocks.length > 0);

const servers: DemoWorker[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
});

describe("the shell commands of the README and the guides", () => {
  it("are there to run: the README's turns at least", () => {
    expect(pages.map((page) => page.path)).toContain("README.md");
  });

  for (const page of pages) {
    it(`runs ${page.path}'s ${page.blocks.length} block(s) against npm run dev's Worker`, async () => {
      for (const block of page.blocks)
        expect(NOT_HERE.test(block.text), `${page.path} line ${block.line} must be marked no-run`).toBe(
          false,
        );
      const server = await startDemoWorker(devVars());
      servers.push(server);
      // A folder of its own: a command that writes files writes them there, never into this checkout.
      const cwd = await mkdtemp(join(tmpdir(), "baton-doc-commands-"));
      for (const block of page.blocks) {
        const script = PRELUDE + block.text.replaceAll(DOC_ORIGIN, server.origin);
        const ran = await promisify(execFile)("bash", ["-c", script], {
          cwd,
          timeout: 60_000,
          maxBuffer: 16 * 1024 * 1024,
        }).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
        expect(
          "code" in ran && typeof ran.code === "number" ? ran.code : 0,
          `${page.path} line ${block.line}:\n${block.text}\n${ran.stdout ?? ""}\n${ran.stderr ?? ""}`,
        ).toBe(0);
      }
      await rm(cwd, { recursive: true, force: true });
    }, 180_000);
  }
});
