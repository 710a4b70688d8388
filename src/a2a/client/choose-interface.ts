import { type AgentCardJson, HTTP_JSON, isAbsoluteUrl, isV1Card, JSONRPC } from "../protocol/agent-card.js";

/** The endpoint Baton talks to: its URL, binding and protocol generation. */
export interface ChosenInterface {
  url: string;
  binding: typeof JSONRPC | typeof HTTP_JSON;
  /** `"1.0"` or `"0.3"` (0.2 cards speak the 0.3 wire). */
  protocolVersion: string;
}

const SUPPORTED = [JSONRPC, HTTP_JSON] as const;

const isHttpUrl = (url: string): boolean => {
  if (!isAbsoluteUrl(url)) return false;
  const { protocol, host } = new URL(url);
  return (protocol === "http:" || protocol === "https:") && host !== "";
};

const isLegacy = (version: string | undefined): boolean =>
  version === undefined || version === "" || version.startsWith("0.");

/**
 * Picks the interface to call (ADK-SEMANTICS §5.1): on a 1.0 card the `supportedInterfaces` entry with a
 * JSON-RPC binding (a 1.x version first), else HTTP+JSON; on a 0.3 card its `url` with `preferredTransport`,
 * or an `additionalInterfaces` entry when the preferred transport is one Baton does not speak.
 * Throws a `TypeError` naming what is missing when no usable interface exists.
 */
export function chooseInterface(card: AgentCardJson): ChosenInterface {
  const candidates: ChosenInterface[] = [];
  if (isV1Card(card)) {
    for (const i of card.supportedInterfaces) {
      const binding = SUPPORTED.find((b) => b === i.protocolBinding.toUpperCase());
      const version = isLegacy(i.protocolVersion) ? "0.3" : (i.protocolVersion ?? "1.0");
      if (binding) candidates.push({ url: i.url, binding, protocolVersion: version });
    }
  } else {
    const version = "0.3";
    const primary = (card.preferredTransport ?? JSONRPC).toUpperCase();
    const binding = SUPPORTED.find((b) => b === primary);
    if (binding) candidates.push({ url: card.url, binding, protocolVersion: version });
    for (const i of card.additionalInterfaces ?? []) {
      const extra = SUPPORTED.find((b) => b === i.transport.toUpperCase());
      if (extra) candidates.push({ url: i.url, binding: extra, protocolVersion: version });
    }
  }
  const usable = candidates.filter((c) => isHttpUrl(c.url));
  const rank = (c: ChosenInterface) =>
    (c.binding === JSONRPC ? 0 : 2) + (isLegacy(c.protocolVersion) ? 1 : 0);
  const best = usable.sort((a, b) => rank(a) - rank(b))[0];
  if (best) return best;
  throw new TypeError(
    candidates.length === 0
      ? `agent card "${card.name}" offers no ${SUPPORTED.join(" or ")} interface`
      : `agent card "${card.name}" has no interface URL with an http(s) scheme and a host`,
  );
}
