import { AgentCard } from "@a2a-js/sdk";
import * as z from "zod";
import type { App } from "../../runner/app.js";

/**
 * Every binding and version served at the app's URL, the preferred first: JSON-RPC 1.0 and 0.3 on the one
 * URL (told apart by the `A2A-Version` header or the method's name), and 1.0's HTTP+JSON below it
 * (`POST …/message:send`, `GET …/tasks/{id}`, …).
 */
export const SERVED_INTERFACES = [
  { protocolBinding: "JSONRPC", protocolVersion: "1.0" },
  { protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
  { protocolBinding: "JSONRPC", protocolVersion: "0.3" },
] as const;

export interface CardOptions {
  /** The app's A2A URL (`…/a2a/:app`): the JSON-RPC endpoint and the HTTP+JSON base. */
  url: string;
  /** Tokens are on: the card declares the bearer scheme. */
  bearer: boolean;
  /** Push notifications are on (`capabilities.pushNotifications`). */
  pushNotifications?: boolean;
  version: string;
}

/**
 * The app's card, from its root agent: name, description, one skill per sub-agent (or the root's own when
 * it has none). The interfaces name every binding and version served, all at the app's URL.
 */
export function buildAgentCard(app: App, options: CardOptions): AgentCard {
  const root = app.rootAgent;
  const agents = root.subAgents.length > 0 ? root.subAgents : [root];
  const bearer: AgentCard["securitySchemes"] = options.bearer
    ? {
        bearer: {
          scheme: {
            $case: "httpAuthSecurityScheme" as const,
            value: { description: "API token", scheme: "bearer", bearerFormat: "" },
          },
        },
      }
    : {};
  return {
    name: root.name,
    description: root.description || `The Baton app ${app.name}`,
    supportedInterfaces: SERVED_INTERFACES.map((served) => ({ url: options.url, tenant: "", ...served })),
    provider: undefined,
    version: options.version,
    capabilities: {
      streaming: true,
      pushNotifications: options.pushNotifications === true,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: bearer,
    securityRequirements: options.bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: agents.map((agent) => ({
      id: agent.name,
      name: agent.name,
      description: agent.description || `The ${agent.name} agent`,
      tags: agent === root ? ["llm"] : ["sub_agent"],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

const JsonObject = z.record(z.string(), z.unknown());

/**
 * The card as served: A2A 1.0 ProtoJSON plus the 0.3 fields (`url`, `preferredTransport`,
 * `additionalInterfaces`, `protocolVersion`, `security`, typed `securitySchemes`), so clients of either
 * version read it. The 0.3 fields name only what a 0.3 client can use (JSON-RPC: 0.3's HTTP+JSON, under
 * `/v1/`, is not served). Each security scheme carries both shapes: 1.0 readers take
 * `httpAuthSecurityScheme`, 0.3 readers `type`.
 */
export function cardJson(card: AgentCard): Record<string, unknown> {
  const json = JsonObject.parse(AgentCard.toJSON(card));
  const schemes = JsonObject.parse(json.securitySchemes ?? {});
  const legacySchemes = Object.fromEntries(
    Object.entries(schemes).map(([name, scheme]) => [
      name,
      { type: "http", scheme: "bearer", ...JsonObject.parse(scheme) },
    ]),
  );
  const bearer = Object.keys(schemes).length > 0;
  const legacy = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3");
  return {
    ...json,
    url: legacy[0]?.url,
    preferredTransport: legacy[0]?.protocolBinding,
    additionalInterfaces: legacy.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    protocolVersion: "0.3",
    capabilities: { ...JsonObject.parse(json.capabilities ?? {}), stateTransitionHistory: false },
    ...(bearer
      ? { securitySchemes: legacySchemes, security: Object.keys(schemes).map((name) => ({ [name]: [] })) }
      : {}),
  };
}
