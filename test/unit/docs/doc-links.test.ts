/**
 * The README stays a newcomer's page (the two commands first, at most 200 lines, every guide linked), and
 * every relative link of the README and the guides leads somewhere: the file exists, and a `#fragment` into
 * a Markdown file names one of its headings as GitHub makes their anchors.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { guides } from "../../../scripts/docs/guides.js";

const ROOT = join(import.meta.dirname, "../../..");
const pages = guides();
const readme = pages.find((page) => page.path === "README.md");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

function anchorsOf(markdown: string): Set<string> {
  const outsideCode = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, "");
  return new Set([...outsideCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading = ""]) => anchorOf(heading)));
}

/** `[text](target)` links outside code blocks and spans, but not images' or absolute URLs. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = ""]) => target)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe("the README", () => {
  it("opens with the two commands, npm ci && npm run dev and npm ci && npm test", () => {
    const first = readme?.blocks[0]?.text ?? "";
    expect(first).toContain("npm ci && npm run dev");
    expect(first).toContain("npm ci && npm test");
  });

  it("is at most 200 lines", () => {
    expect(readme?.text.split("\n").length).toBeLessThanOrEqual(200);
  });

  it("links every guide in docs/", () => {
    const linked = new Set(relativeLinks(readme?.text ?? "").map((target) => target.split("#")[0]));
    const unlinked = pages
      .map((page) => page.path)
      .filter((path) => path !== "README.md" && !linked.has(path));
    expect(unlinked).toEqual([]);
  });
});

describe("the links of the README and the guides", () => {
  it("lead to files that exist, and to headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const link of relativeLinks(page.text)) {
        checked += 1;
        const [path = "", fragment] = link.split("#");
        const target = path === "" ? join(ROOT, page.path) : join(ROOT, dirname(page.path), path);
        if (!existsSync(target)) {
          broken.push(`${page.path}: ${link} (no such file)`);
          continue;
        }
        if (fragment !== undefined && target.endsWith(".md")) {
          if (!anchorsOf(readFileSync(target, "utf8")).has(fragment))
            broken.push(`${page.path}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked, "the guides link each other").toBeGreaterThan(50);
  });
});
