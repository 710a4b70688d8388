import { describe, expect, it } from "vitest";
import * as zod from "zod";
import { z } from "zod/v4";

describe("zod in workerd, as a deployed Worker has it", () => {
  it("serves the AI SDK's zod/v4 from the lean module wrangler.toml aliases, with English only", () => {
    expect(Object.keys(z.locales)).toEqual(["en"]);
    expect(z.object({ a: z.string() })).toBeInstanceOf(zod.ZodObject);
    expect(z.object({ a: z.string() }).safeParse({ a: 1 }).error?.issues[0]?.message).toBe(
      "Invalid input: expected string, received number",
    );
  });
});
