// @ts-check
/**
 * A TypeDoc plugin (typedoc.json `plugin`): each module of the API reference is named by the import path a
 * user writes (`@baton-agents/core/cloudflare`), from package.json `exports`, not by its source file's name.
 */
import { readFileSync } from "node:fs";
import { Converter, ReflectionKind } from "typedoc";

/** @param {import("typedoc").Application} app */
export function load(app) {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  /** @type {Map<string, string>} the module's name as TypeDoc makes it (`models/openai-provider`) → the import path */
  const names = new Map();
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const source = typeof target === "object" ? target["baton-source"] : undefined;
    if (typeof source !== "string") continue;
    names.set(source.replace(/^\.\/src\//, "").replace(/\.ts$/, ""), `${pkg.name}${entry.slice(1)}`);
  }
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const name = names.get(module.name);
      if (name === undefined) throw new Error(`typedoc-entry-names: no package entry for ${module.name}`);
      module.name = name;
    }
  });
}
