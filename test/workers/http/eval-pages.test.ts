import { describe, expect, it } from "vitest";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { callEntry, expectJson } from "../support/http.js";

describe("ADK's eval listings in pages (decision 046)", () => {
  it("lists eval set ids a page at a time, the body as ADK answers it and the next page's token in headers", async () => {
    const call = callEntry();
    const ids = ["p1", "p2", "p3", "p4", "p5"];
    for (const id of ids) await expectJson(call(`/apps/demo/eval_sets/${id}`, { method: "POST" }), 200);

    const seen: string[] = [];
    let path: string | null = "/apps/demo/eval_sets?pageSize=2";
    while (path !== null) {
      const response = await call(path);
      seen.push(...(await response.json<string[]>()));
      path = response.headers.get("Link")?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null;
    }
    // Other test files share the app's storage: the pages must add up to the whole listing, in order, once each.
    const whole = await expectJson<string[]>(call("/apps/demo/eval_sets?pageSize=1000"), 200);
    expect(seen).toEqual(whole);
    expect(whole.filter((id) => ids.includes(id))).toEqual(ids);

    const wrapped = await call("/dev/apps/demo/eval-sets?page_size=3");
    expect(await wrapped.json()).toEqual({ evalSetIds: whole.slice(0, 3) });
    const token = wrapped.headers.get("Next-Page-Token") ?? "";
    const rest = await expectJson(call(`/dev/apps/demo/eval-sets?page_size=3&pageToken=${token}`), 200);
    expect(rest).toEqual({ evalSetIds: whole.slice(3, 6) });
    await expectJson(call("/apps/demo/eval_sets?pageToken=not-ours"), 400);
  });
});
