/**
 * The twin bench's scenario, shared by both sides: the same three-agent tree, the same texts, the same
 * scripted replies, the same turns. Only each framework's own API differs (see `adk-side.ts`, `baton-side.ts`).
 */
export const AGENTS = ["front_desk", "billing", "faq"] as const;
export type AgentName = (typeof AGENTS)[number];

export const TREE = {
  front_desk: {
    description: "Greets the user and routes the request to the right specialist.",
    instruction: "Route every request to the right specialist agent.",
  },
  billing: {
    description: "Handles invoices, charges and refunds.",
    instruction: "You answer billing questions briefly.",
    reply: "Your last invoice was $42.00, paid on the 3rd.",
  },
  faq: {
    description: "Answers general frequently asked questions.",
    instruction: "You answer FAQs briefly.",
    reply: "Our opening hours are 9-5.",
  },
} as const;

export const APP = "bench_app";
export const USER = "bench_user";

export const userText = (i: number) => `Why was I charged twice this month? (msg ${i})`;

/** One side of the twin: a framework running the scenario in this process. */
export interface TwinSide {
  /** Model calls per agent so far (the scripted models count them). */
  readonly calls: Record<AgentName, number>;
  createSession(sessionId: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** One turn, drained; `bounded` runs it with the history bound of 50 events where the framework has one. */
  turn(sessionId: string, i: number, bounded?: boolean): Promise<void>;
  /** Appends `pairs` (user, billing) event pairs, shaped as a sticky turn stores them, through the store. */
  appendPairs(sessionId: string, pairs: number): Promise<void>;
  eventCount(sessionId: string): Promise<number>;
  /** Whether the framework bounds a turn's history (`bounded` above means something). */
  readonly hasBound: boolean;
}

/** First turn: front_desk transfers, billing answers. Every later turn: billing alone. */
export const EXPECTED = {
  first: { front_desk: 1, billing: 1, faq: 0 },
  later: { front_desk: 0, billing: 1, faq: 0 },
} as const;
