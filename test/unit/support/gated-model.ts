import { createDemoModel } from "../../../src/demo/model.js";

/**
 * A demo model whose calls wait until `open()` or until their abort signal fires (then they reject with its
 * reason, as a provider's fetch does). `waiting(n)` resolves once n calls have begun; `aborted` counts the
 * calls the signal stopped; `asked` lists each call's last user text in call order.
 */
export function gatedModel() {
  const demo = createDemoModel("gated");
  let opened = false;
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    open = () => {
      opened = true;
      resolve();
    };
  });
  const counts = { calls: 0, aborted: 0 };
  const asked: string[] = [];
  const watchers: { n: number; resolve: () => void }[] = [];
  const model = {
    ...demo,
    doGenerate: async (options: Parameters<typeof demo.doGenerate>[0]) => {
      counts.calls++;
      asked.push(lastUserText(options.prompt));
      for (const w of watchers.filter((w) => counts.calls >= w.n)) w.resolve();
      const signal = options.abortSignal;
      await new Promise<void>((resolve, reject) => {
        if (opened) return resolve();
        void gate.then(resolve);
        signal?.addEventListener(
          "abort",
          () => {
            counts.aborted++;
            reject(signal.reason);
          },
          { once: true },
        );
      });
      return demo.doGenerate(options);
    },
  };
  const waiting = (n: number) =>
    counts.calls >= n ? Promise.resolve() : new Promise<void>((resolve) => watchers.push({ n, resolve }));
  return { model, open: () => open(), waiting, counts, asked };
}

/** The text of the prompt's last user message. */
function lastUserText(prompt: readonly { role: string; content: unknown }[]): string {
  const last = prompt.findLast((m) => m.role === "user");
  const parts = Array.isArray(last?.content) ? (last.content as { type: string; text?: string }[]) : [];
  return parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");
}
