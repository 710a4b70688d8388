import { zodSchema } from "@ai-sdk/provider-utils";
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import { ZodFirstPartyTypeKind as zod3Kinds } from "zod/v3";
import { ZodCompileUnsupportedError } from "zod/v4/core";
import { ZodFirstPartyTypeKind } from "../../../src/zod/v3.js";
import { z } from "../../../src/zod/v4.js";

describe("the lean zod/v4 a Worker's alias serves", () => {
  it("has every member of zod's API, with English as the only locale", () => {
    expect(Object.keys(z).sort()).toEqual(Object.keys(zod).sort());
    expect(Object.keys(z.locales)).toEqual(["en"]);
    expect(Object.keys(z.core.locales)).toEqual(["en"]);
    expect(Object.keys(z.core).sort()).toEqual(Object.keys(zod.core).sort());
  });

  it("leaves fromJSONSchema out with an error that says where to import it from", () => {
    expect(() => z.fromJSONSchema({ type: "string" })).toThrow(/import \{ fromJSONSchema \} from "zod"/);
  });

  it("builds schemas that are zod's own, so either side's checks accept the other's", () => {
    const lean = z.object({ city: z.string() });
    expect(lean).toBeInstanceOf(zod.ZodObject);
    expect(zod.string()).toBeInstanceOf(z.ZodString);
    expect(zod.object({ place: lean }).parse({ place: { city: "Oslo" } })).toEqual({
      place: { city: "Oslo" },
    });
  });

  it("reports issues in English, as zod does by default", () => {
    const result = z.object({ city: z.string() }).safeParse({ city: 7 });
    expect(result.error?.issues[0]?.message).toBe("Invalid input: expected string, received number");
    expect(result.error?.issues[0]?.message).toBe(
      zod.object({ city: zod.string() }).safeParse({ city: 7 }).error?.issues[0]?.message,
    );
  });

  it("gives the AI SDK the same JSON Schema and validation as zod", async () => {
    const lean = zodSchema(z.object({ city: z.string().describe("A city"), days: z.number().int() }));
    const real = zodSchema(zod.object({ city: zod.string().describe("A city"), days: zod.number().int() }));
    expect(await lean.jsonSchema).toEqual(await real.jsonSchema);
    expect(await lean.validate?.({ city: "Oslo", days: 2 })).toEqual({
      success: true,
      value: { city: "Oslo", days: 2 },
    });
    expect((await lean.validate?.({ city: "Oslo", days: 1.5 }))?.success).toBe(false);
  });

  it("compiles as zod does where code generation is forbidden: the schema back, or a refusal under strict", () => {
    const schema = z.object({ city: z.string() });
    expect(z.compile(schema)).toBe(schema);
    expect(z.core.compile(schema)).toBe(schema);
    expect(() => z.compile(schema, { strict: true })).toThrow(ZodCompileUnsupportedError);
    expect(() => z.compile(schema, { strict: true })).toThrow(/Workers forbid `new Function`/);
  });
});

describe("the lean zod/v3 a Worker's alias serves", () => {
  it("names zod 3's schema kinds exactly as zod 3 does", () => {
    expect({ ...ZodFirstPartyTypeKind }).toEqual({ ...zod3Kinds });
  });
});
