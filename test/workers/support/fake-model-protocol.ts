// Shared by the fake server (Node) and the tests (workerd): how a base URL encodes a test's model behaviour.

/** How the fake behaves for one base URL: which models answer 503, and how long every answer takes. */
export interface FakeOptions {
  /** Model ids that answer 503 on every attempt. */
  down: string[];
  delayMs: number;
}

/** One request the fake received. */
export interface FakeCall {
  model: string;
  stream: boolean;
  /** The text of the newest message in the request. */
  lastMessage: string;
  /** The text of the system message(s): the instruction the agent built. */
  system: string;
  /** The sampling and output settings the request carried (`temperature`, `max_tokens`, `response_format`…). */
  settings: Record<string, unknown>;
  status: number;
}

export interface FakeCallLog {
  calls: FakeCall[];
  /** The most requests of this test that were in flight at once. */
  maxInFlight: number;
}

/** The options as one URL path segment, e.g. `down=sub-model;delay=150` (`-` for none). */
export function formatFakeOptions(options: Partial<FakeOptions>): string {
  const fields = [
    ...(options.down ?? []).map((model) => `down=${model}`),
    ...(options.delayMs ? [`delay=${options.delayMs}`] : []),
  ];
  return fields.length === 0 ? "-" : encodeURIComponent(fields.join(";"));
}

export function parseFakeOptions(segment: string): FakeOptions {
  const options: FakeOptions = { down: [], delayMs: 0 };
  for (const field of decodeURIComponent(segment).split(";")) {
    const [name, value = ""] = field.split("=");
    if (name === "down") options.down.push(value);
    if (name === "delay") options.delayMs = Number(value);
  }
  return options;
}
