import { describe, expect, it } from "vitest";
import { docBlocks, docFiles, docInstall } from "../../../scripts/docs/doc-blocks.js";

const GUIDE = [
  "# A guide",
  "```sh no-run",
  "npm install -D @baton-agents/core zod",
  "npx wrangler deploy",
  "```",
  "Text.",
  "````ts file=src/worker.ts",
  "const fence = '```';",
  "````",
  "```toml file=wrangler.toml",
  'name = "x"',
  "```",
  "```sh",
  "curl -s http://127.0.0.1:8787/health",
  "```",
].join("\n");

describe("the code blocks of a guide", () => {
  it("reads each block's language, file and whether it runs, a longer fence holding a shorter one", () => {
    expect(docBlocks(GUIDE).map(({ lang, file, runs, line }) => ({ lang, file, runs, line }))).toEqual([
      { lang: "sh", file: undefined, runs: false, line: 3 },
      { lang: "ts", file: "src/worker.ts", runs: true, line: 8 },
      { lang: "toml", file: "wrangler.toml", runs: true, line: 11 },
      { lang: "sh", file: undefined, runs: true, line: 14 },
    ]);
  });

  it("gives the project files by path, and the packages of the first npm install line", () => {
    expect([...docFiles(GUIDE)]).toEqual([
      ["src/worker.ts", "const fence = '```';\n"],
      ["wrangler.toml", 'name = "x"\n'],
    ]);
    expect(docInstall(GUIDE)).toEqual(["@baton-agents/core", "zod"]);
    expect(docInstall("no blocks")).toEqual([]);
  });
});
