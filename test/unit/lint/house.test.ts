import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { houseReport, type SourceFile } from "../../../scripts/rooms/house.js";

const SRC = join(import.meta.dirname, "../../../src");

function sources(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    if (!name.endsWith(".ts") || name.endsWith(".d.ts")) return [];
    return [{ path: relative(SRC, path).replaceAll("\\", "/"), text: readFileSync(path, "utf8") }];
  });
}

describe("the house's rooms (npm run rooms)", () => {
  it("has no circle of value imports, no two-way room imports, no demo outside the demo Worker, no file over 400 lines", () => {
    expect(houseReport(sources(SRC)).problems).toEqual([]);
  }, 60_000); // parses every source file: half a second alone, many on a loaded machine

  it("finds a circle of value imports between files, and ignores one made of type imports only", () => {
    const report = houseReport([
      { path: "a/one.ts", text: 'import { two } from "./two.js";\nexport const one = two;\n' },
      { path: "a/two.ts", text: 'import { one } from "./one.js";\nexport const two = one;\n' },
      { path: "a/three.ts", text: 'import type { Four } from "./four.js";\nexport type Three = Four;\n' },
      { path: "a/four.ts", text: 'import { type Three } from "./three.js";\nexport type Four = Three;\n' },
    ]);
    expect(report.problems).toEqual(["value import circle: a/one.ts → a/two.ts"]);
  });

  it("finds two rooms that take values from each other, but not a type-only way back", () => {
    const report = houseReport([
      { path: "a/x.ts", text: 'import { y } from "../b/y.js";\nexport const x = y;\n' },
      { path: "b/y.ts", text: 'export const y = 1;\nexport const z = () => import("../a/x.js");\n' },
      { path: "c/p.ts", text: 'import { q } from "../d/q.js";\nexport const p = q;\n' },
      {
        path: "d/q.ts",
        text: 'import type { p } from "../c/p.js";\nexport const q = 1;\nexport type P = typeof p;\n',
      },
    ]);
    expect(report.problems).toEqual(["two-way room imports: a ↔ b (a/x.ts → b/y.ts; b/y.ts → a/x.ts)"]);
  });

  it("finds demo/ imported outside the demo Worker, and files over 400 lines", () => {
    const report = houseReport([
      { path: "demo/app.ts", text: "export const app = 1;\n" },
      { path: "worker.ts", text: 'import { app } from "./demo/app.js";\nexport default app;\n' },
      { path: "models/registry.ts", text: `import { app } from "../demo/app.js";\n${"//\n".repeat(401)}` },
    ]);
    expect(report.problems).toEqual([
      "imports demo/ outside the demo Worker: models/registry.ts → demo/app.ts",
      "over 400 lines: models/registry.ts (402)",
    ]);
  });
});
