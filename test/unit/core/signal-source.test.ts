import { describe, expect, it } from "vitest";
import { withLazySignal } from "../../../src/core/signal-source.js";

describe("withLazySignal", () => {
  it("reads the source's signal each time the key is read, and not before", () => {
    let reads = 0;
    const first = new AbortController().signal;
    const second = new AbortController().signal;
    let current: AbortSignal | undefined = first;
    const source = {
      get signal() {
        reads++;
        return current;
      },
    };
    const options = withLazySignal({ streaming: false }, "signal", source);
    expect(reads).toBe(0);
    expect(Reflect.get(options, "signal")).toBe(first);
    current = second;
    expect(Reflect.get(options, "signal")).toBe(second);
    current = undefined;
    expect(Reflect.get(options, "signal")).toBeUndefined();
    expect(reads).toBe(3);
  });

  it("is an own, enumerable key: spreads and destructuring carry the signal; the source stays hidden", () => {
    const signal = new AbortController().signal;
    const options = withLazySignal({ prompt: [] as string[] }, "abortSignal", { signal });
    expect({ ...options }).toEqual({ prompt: [], abortSignal: signal });
    const { abortSignal, ...rest } = options as { abortSignal?: AbortSignal; prompt: string[] }; // SAFETY: withLazySignal added the key.
    expect(abortSignal).toBe(signal);
    expect(rest).toEqual({ prompt: [] });
    expect(Object.keys(options)).toEqual(["prompt", "abortSignal"]);
    expect(JSON.stringify(options)).toBe(`{"prompt":[],"abortSignal":${JSON.stringify(signal)}}`);
  });
});
