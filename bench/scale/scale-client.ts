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

  /**
   * Sends, and again after a drop by the dev proxy (its 503, or a connection it reset); after a drop, a 409
   * means the dropped send went through: `sameAgain` says whether that is the answer wanted (a create), and
   * otherwise (a turn still running) the request is sent again after a wait.
   */
  async send(
    method: string,
    path: string,
    body?: unknown,
    sameAgain?: (a: Answer) => boolean,
  ): Promise<Answer> {
    let answer = await this.#once(method, path, body);
    let wasDropped = false;
    for (let send = 2; send <= MAX_SENDS; send++) {
      if (dropped(answer)) {
        wasDropped = true;
        this.drops++;
      } else if (!(wasDropped && answer.status === 409)) break;
      else if (sameAgain?.(answer)) {
        answer = { ...answer, status: 200 };
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * send));
      answer = await this.#once(method, path, body);
    }
    if (answer.status >= 500 || answer.status === 0)
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
    return new Promise((resolve) => {
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
        res.on("error", (error) => resolve(reset(error, t0)));
      });
      // A connection the dev proxy reset under load answers nothing: a drop, sent again.
      req.on("error", (error) => resolve(reset(error, t0)));
      req.end(payload);
    });
  }
}

const dropped = (answer: Answer): boolean =>
  answer.status === 0 || (answer.status === 503 && answer.text.startsWith(DROPPED_BY_DEV_PROXY));

/** A request whose connection failed: status 0 and the error's message. */
const reset = (error: Error, t0: number): Answer => ({
  status: 0,
  text: error.message,
  headers: {},
  ms: performance.now() - t0,
});

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
