import * as z from "zod";

/** The transports a card can name (A2A 0.3 `preferredTransport`, 1.0 `protocolBinding`). */
export const JSONRPC = "JSONRPC";
export const HTTP_JSON = "HTTP+JSON";

const Skill = z.looseObject({ id: z.string(), name: z.string() });
const Capabilities = z.looseObject({
  streaming: z.boolean().optional(),
  extensions: z.array(z.looseObject({ uri: z.string() })).optional(),
});
// Required by both generations' schemas (and by the SDK's card conversion).
const common = {
  name: z.string().min(1),
  description: z.string(),
  version: z.string(),
  capabilities: Capabilities,
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(Skill),
};

/** A 1.0 `AgentInterface`: where one protocol binding is served (PLATFORM.md §3.3). */
export const AgentInterfaceSchema = z.looseObject({
  url: z.string().min(1),
  protocolBinding: z.string().min(1),
  protocolVersion: z.string().optional(),
  tenant: z.string().optional(),
});
export type AgentInterfaceJson = z.infer<typeof AgentInterfaceSchema>;

/** An A2A 1.0 agent card: interfaces listed in `supportedInterfaces`, no top-level `url`. */
export const AgentCardV1Schema = z.looseObject({
  ...common,
  supportedInterfaces: z.array(AgentInterfaceSchema).min(1),
});

/** An A2A 0.2/0.3 agent card: one `url` with its `preferredTransport`, more in `additionalInterfaces`. */
export const AgentCardV03Schema = z.looseObject({
  ...common,
  url: z.string().min(1),
  protocolVersion: z.string().optional(),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(z.looseObject({ url: z.string().min(1), transport: z.string() })).optional(),
});

export type AgentCardV1 = z.infer<typeof AgentCardV1Schema>;
export type AgentCardV03 = z.infer<typeof AgentCardV03Schema>;

/** A card in either protocol generation, told apart by its fields. */
export const AgentCardJsonSchema = z.union([AgentCardV1Schema, AgentCardV03Schema]);
export type AgentCardJson = AgentCardV1 | AgentCardV03;

/** Whether a validated card is a 1.0 card (it lists `supportedInterfaces`). */
export const isV1Card = (card: AgentCardJson): card is AgentCardV1 => Array.isArray(card.supportedInterfaces);

/** Whether `url` parses as an absolute URL. */
export function isAbsoluteUrl(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
