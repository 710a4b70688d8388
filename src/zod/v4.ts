/**
 * A lean `zod/v4` for Worker bundles (wrangler `[alias] "zod/v4" = …`, docs/deploying.md "Bundle size"). The AI SDK
 * imports `{ z } from "zod/v4"` and uses `z` as a value, so a bundler keeps every member of that namespace,
 * all 64 locales included (~370 KB). Here `z` is this module: zod's classic API from the very modules
 * `zod` resolves to (schemas built through either are one zod), with only the English locale (in `locales`
 * and in `core`) and `compile` as Workers run it,
 * and without `fromJSONSchema`. Local exports shadow the star-exported ones.
 */
import type { fromJSONSchema as zodFromJsonSchema } from "zod";

export * from "zod";
// This module as its own namespace (`export * as`, not an import alias: a Node project's tsc, nodenext with
// skipLibCheck off, reads `import * as z` of this file re-exported as a circular alias).
export * as z from "./v4.js";
export * as default from "./v4.js";
export * as core from "./v4-core.js";
export { compile, locales } from "./v4-core.js";

/**
 * Left out of the lean build (−4.9 KiB gzip, decision 023): nothing in Baton or the AI SDK turns JSON Schema
 * back into zod. A Worker that needs it imports it from `zod` itself, which the alias does not touch.
 */
export function fromJSONSchema(..._args: Parameters<typeof zodFromJsonSchema>): never {
  throw new Error(
    'fromJSONSchema is not in Baton\'s lean zod/v4 (wrangler [alias]); import { fromJSONSchema } from "zod" instead.',
  );
}
