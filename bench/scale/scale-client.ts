/**
 * The scale bench's side of the wire: keep-alive HTTP to the Worker, every answer timed and measured, every
 * 5xx kept (the bench fails on any), and the largest body seen.
 */
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import { read, workerdPids } from "../http/worker-cpu.js";

export interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
  ms: number;
}

/**
 * What wrangler dev's proxy answers (503) when its own fetch to the Worker fails with a network error (see
 * `bench/http/client.ts`): the request may not have reached the Worker. Sent again, and counted apart.
 */
const DROPPED_BY_DEV_PROXY = "Your worker restarted mid-request";
const MAX_SENDS = 8;

export class ScaleClient {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 512 });
  /** Every 5xx the Worker answered (not the dev proxy's drops): the bench fails on any. */
  readonly errors: string[] = [];
  drops = 0;
  largest = { bytes: 0, what: "" };

  constructor(readonly origin: string) {}

  /** Sends once more after a drop by the dev proxy; `sameAgain` says a repeat's answer means it went through. */
  async send(
    method: string,
    path: string,
    body?: unknown,
    sameAgain?: (a: Answer) => boolean,
  ): Promise<Answer> {
    let answer = await this.#once(method, path, body);
    for (let send = 2; send <= MAX_SENDS && dropped(answer); send++) {
      this.drops++;
      await new Promise((resolve) => setTimeout(resolve, 100 * send));
      const again = await this.#once(method, path, body);
      answer = sameAgain?.(again) ? { ...again, status: 200 } : again;
    }
    if (answer.status >= 500)
      this.errors.push(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
    if (answer.text.length > this.largest.bytes)
      this.largest = { bytes: answer.text.length, what: `${method} ${path}` };
    return answer;
  }

  /** A GET that must answer 200; its parsed body with the answer. */
  async json<T>(path: string): Promise<{ body: T; answer: Answer }> {
    const answer = await this.send("GET", path);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
    // SAFETY: the bench reads its own Worker's answers, whose shape the route defines.
    return { body: JSON.parse(answer.text) as T, answer };
  }

  close(): void {
    this.#agent.destroy();
  }

  #once(method: string, path: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = payload
      ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
      : {};
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request(`${this.origin}${path}`, { method, agent: this.#agent, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (chunk: Buffer) => parts.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(parts).toString(),
            headers: res.headers,
            ms: performance.now() - t0,
          }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload);
    });
  }
}

const dropped = (answer: Answer): boolean =>
  answer.status === 503 && answer.text.startsWith(DROPPED_BY_DEV_PROXY);

/** The resident memory of every workerd process under this one, in MiB (0 where /proc has none). */
export function workerdRssMiB(): number {
  let kib = 0;
  for (const pid of workerdPids()) {
    const status = read(`/proc/${pid}/status`);
    kib += Number(status?.match(/^VmRSS:\s+(\d+) kB$/m)?.[1] ?? 0);
  }
  return kib / 1024;
}

/** Runs `task(i)` for i in [0, n), at most `concurrency` at once; the wall time in ms. */
export async function inPool(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return performance.now() - t0;
}
