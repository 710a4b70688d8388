import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

/** Every TypeScript file under `dir`, relative to the repository. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : tsFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [relative(ROOT, path)] : [];
  });
}

/** Each import of `zod` itself that brings values: `import … from "zod"` without `import type`. */
const zodValueImports = (text: string): string[] =>
  [...text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+"zod";/gm)].map((m) => m[1] ?? "");

const ZOD_OWN = /^src\/zod\//; // the lean modules re-export zod itself (decision 023)

describe("how Baton and its starter import zod", () => {
  it("is the namespace import everywhere (zod's `z` value would keep its 64 locales in a Worker)", () => {
    const files = [
      ...tsFiles(join(ROOT, "src")),
      ...tsFiles(join(ROOT, "packages/create-baton-agents/template")),
    ];
    const offenders = files
      .filter((file) => !ZOD_OWN.test(file))
      .flatMap((file) =>
        zodValueImports(readFileSync(join(ROOT, file), "utf8"))
          .filter((clause) => clause !== "* as z")
          .map((clause) => `${file}: import ${clause} from "zod"`),
      );
    expect(offenders).toEqual([]);
    // The starter's agents are among the files read.
    expect(files).toContain("packages/create-baton-agents/template/src/app.ts");
  });

  it("tells the named import from the namespace one and lets type-only imports be", () => {
    const text = 'import { z } from "zod";\nimport * as z from "zod";\nimport type { z } from "zod";\n';
    expect(zodValueImports(text)).toEqual(["{ z }", "* as z"]);
  });
});
