/** The driver's side of the wire: keep-alive HTTP to the bench Worker, and one timed turn per call. */
import { Agent, request } from "node:http";
import { AGENT_NAME } from "./bench-env.js";
import { FAKE_ANSWER } from "./fake-model.js";

const QUESTION = "What is the status of my order?";
/** What the final model event of a turn carries, on every route. */
const FINISHED = '"finishReason":"STOP"';

/**
 * What wrangler dev's proxy answers (503) when its own fetch to the Worker fails with a network error. Its
 * "restarted" check compares the request's URL (with its path) to the Worker's origin (without one), so
 * under load a pooled connection the Worker's side reset ("Connection reset by peer", "stream disconnected
 * prematurely") gets this answer with no restart at all. The request may not have reached the Worker.
 */
const DROPPED_BY_DEV_PROXY = "Your worker restarted mid-request";
/** Sends of one turn at most: the first, then again after a drop (or a 409 left by a dropped send). */
const MAX_SENDS = 8;

const dropped = (answer: { status: number; text: string }): boolean =>
  answer.status === 503 && answer.text.startsWith(DROPPED_BY_DEV_PROXY);

/** A session the driver runs turns on: its app, user and id. */
export interface BenchSession {
  appName: string;
  userId: string;
  sessionId: string;
}

export class BenchClient {
  // node:http with keep-alive costs a few ms less per request than fetch here, on both sides alike.
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 512 });
  #resent = 0;

  constructor(readonly origin: string) {}

  /** POSTs JSON and returns the status and body text. */
  post(path: string, body: unknown): Promise<{ status: number; text: string }> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.origin}${path}`,
        {
          method: "POST",
          agent: this.#agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (chunk: Buffer) => parts.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Creates a session and grows it to `events` synthetic events. */
  async createSession(session: BenchSession, events: number): Promise<BenchSession> {
    const created = await this.post(`/apps/${session.appName}/users/${session.userId}/sessions`, {
      sessionId: session.sessionId,
    });
    if (created.status !== 200)
      throw new Error(`create ${session.sessionId}: ${created.status} ${created.text}`);
    if (events > 0) {
      const seeded = await this.post("/bench/seed", { ...session, count: events });
      if (seeded.status !== 200)
        throw new Error(`seed ${session.sessionId}: ${seeded.status} ${seeded.text}`);
    }
    return session;
  }

  /** One Baton turn (`POST /run`), timed from send to the last byte; throws unless the answer came back. */
  batonTurn(session: BenchSession): Promise<number> {
    const newMessage = { role: "user", parts: [{ text: QUESTION }] };
    return this.#timed("/run", { ...session, newMessage });
  }

  /** The same turn streamed (`POST /run_sse`): partial events as the model's chunks arrive, then the final one. */
  batonSseTurn(session: BenchSession): Promise<number> {
    const newMessage = { role: "user", parts: [{ text: QUESTION }] };
    return this.#timed("/run_sse", { ...session, newMessage, streaming: true });
  }

  /** One baseline turn (`POST /baseline/run`), timed and checked the same way. */
  baselineTurn(session: BenchSession): Promise<number> {
    return this.#timed("/baseline/run", { ...session, text: QUESTION });
  }

  /** The baseline turn streamed (`POST /baseline/run_sse`): a partial event per model chunk, then the final one. */
  baselineSseTurn(session: BenchSession): Promise<number> {
    return this.#timed("/baseline/run_sse", { ...session, text: QUESTION });
  }

  /** Turns sent again because wrangler dev's proxy dropped a send (each counts once, timed from its first send). */
  get resent(): number {
    return this.#resent;
  }

  close(): void {
    this.#agent.destroy();
  }

  async #timed(path: string, body: unknown): Promise<number> {
    const t0 = performance.now();
    const { status, text } = await this.#send(path, body);
    const ms = performance.now() - t0;
    // A failed turn is fast; counting it would flatter the figures, so it stops the bench instead.
    if (
      status !== 200 ||
      !text.includes(FAKE_ANSWER) ||
      !text.includes(`"author":"${AGENT_NAME}"`) ||
      !text.includes(FINISHED)
    )
      throw new Error(`${path} did not answer: ${status} ${text.slice(0, 300)}`);
    return ms;
  }

  /**
   * POSTs a turn; a send wrangler dev's proxy dropped is sent again, after a short wait, and so is one that
   * then finds the session busy (the dropped send did reach the Worker and its turn still runs).
   */
  async #send(path: string, body: unknown): Promise<{ status: number; text: string }> {
    let answer = await this.post(path, body);
    let wasDropped = false;
    for (let send = 2; send <= MAX_SENDS; send++) {
      if (dropped(answer)) wasDropped = true;
      else if (!(wasDropped && answer.status === 409)) break;
      await new Promise((resolve) => setTimeout(resolve, 100 * send));
      answer = await this.post(path, body);
    }
    if (wasDropped) this.#resent++;
    return answer;
  }
}
