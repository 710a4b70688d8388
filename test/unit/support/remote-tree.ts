import { RemoteA2aAgent, type RemoteA2aAgentConfig } from "../../../src/a2a/client/remote-a2a-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { type FakePeer, type FakePeerOptions, fakePeer, PEER_BASE } from "./fake-a2a-peer.js";
import { harness } from "./harness.js";
import { type Reply, scriptedModel } from "./scripted-model.js";

export const transferTo = (agent_name: string) => ({
  calls: [{ name: "transfer_to_agent", args: { agent_name } }],
});

/**
 * A root LlmAgent that transfers to "remote" on every turn, a RemoteA2aAgent over a fake peer, and a
 * harness around them.
 */
export async function remoteTree(
  peerOptions: FakePeerOptions,
  config: Partial<RemoteA2aAgentConfig> | ((peer: FakePeer) => Partial<RemoteA2aAgentConfig>) = {},
  rootReplies: Reply[] = [transferTo("remote")],
) {
  const peer = fakePeer(peerOptions);
  const remote = new RemoteA2aAgent({
    name: "remote",
    agentCard: `${PEER_BASE}/.well-known/agent-card.json`,
    fetch: peer.fetch,
    ...(typeof config === "function" ? config(peer) : config),
  });
  const rootModel = scriptedModel(rootReplies);
  const root = new LlmAgent({ name: "root", model: rootModel, subAgents: [remote] });
  const h = await harness(root);
  return { ...h, peer, remote, rootModel };
}
