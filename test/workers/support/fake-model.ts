import { inject } from "vitest";
import { type FakeCallLog, type FakeOptions, formatFakeOptions } from "./fake-model-protocol.js";

/**
 * The fake OpenAI-compatible server as one test sees it: base URLs under a test id of its own, so the
 * calls it records belong to this test only. The behaviour (models down, latency) is in the URL.
 */
export function fakeModelServer() {
  const root = inject("fakeModelUrl");
  const testId = crypto.randomUUID();
  return {
    /** A value for `OPENAI_COMPATIBLE_BASE_URL`. */
    baseUrl: (options: Partial<FakeOptions> = {}) => `${root}/t/${testId}/${formatFakeOptions(options)}/v1`,
    /** Every request this test's URLs received, in arrival order. */
    async calls(): Promise<FakeCallLog> {
      const res = await fetch(`${root}/t/${testId}/calls`);
      // SAFETY: the fake server answers this route with a FakeCallLog.
      return (await res.json()) as FakeCallLog;
    },
  };
}
