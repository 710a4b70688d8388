import { createDemoModel } from "../../../src/demo-model/model.js";
import { signal, until } from "../../support/signal.js";

/**
 * A demo model whose calls wait until `open()` or until their abort signal fires (then they reject with its
 * reason, as a provider's fetch does). `waiting(n)` resolves once n calls have begun; `aborted` counts the
 * calls the signal stopped; `asked` lists each call's last user text in call order.
 */
export function gatedModel() {
  const demo = createDemoModel("gated");
  const gate = signal();
  const counts = { calls: 0, aborted: 0 };
  const asked: string[] = [];
  const model = {
    ...demo,
    doGenerate: async (options: Parameters<typeof demo.doGenerate>[0]) => {
      counts.calls++;
      asked.push(lastUserText(options.prompt));
      const abortSignal = options.abortSignal;
      // Counted as the abort happens (plain data, from any context); the call itself polls for its end.
      abortSignal?.addEventListener(
        "abort",
        () => {
          counts.aborted++;
        },
        { once: true },
      );
      await until(() => (gate.done || abortSignal?.aborted ? true : undefined));
      if (!gate.done && abortSignal?.aborted) throw abortSignal.reason;
      return demo.doGenerate(options);
    },
  };
  // Polled, not resolved by the model: the model may run in another workerd context than the test (signal.ts).
  const waiting = (n: number) => until(() => (counts.calls >= n ? true : undefined)).then(() => undefined);
  return { model, open: () => gate.resolve(), waiting, counts, asked };
}

/** The text of the prompt's last user message. */
function lastUserText(prompt: readonly { role: string; content: unknown }[]): string {
  const last = prompt.findLast((m) => m.role === "user");
  const parts = Array.isArray(last?.content) ? (last.content as { type: string; text?: string }[]) : [];
  return parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");
}
