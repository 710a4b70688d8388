/**
 * `zod/v4/core` as the lean `zod/v4` has it (see `v4.ts`): only the English locale, and `compile` without
 * the code generator Workers cannot run. Local exports shadow the star-exported ones of the same name.
 */
import en from "zod/v4/locales/en.js";

export * from "zod/v4/core";
export { compile, compileFn } from "./workers-compile.js";
/** The one locale the lean build keeps (zod's default); `z.config(z.locales.en())` still works. */
export const locales = { en };
