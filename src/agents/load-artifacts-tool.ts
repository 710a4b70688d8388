import type { Part } from "../core/content.js";
import type { LlmRequest } from "../core/llm.js";
import { LOAD_ARTIFACTS_DECLARATION } from "./builtin-declarations.js";
import type { FunctionTool } from "./function-tool.js";
import { appendInstructions, type RequestToolContext } from "./request-tool.js";

/** The instruction ADK's `LoadArtifactsTool` appends when the session has artifacts (its indentation kept). */
export const loadArtifactsInstruction = (names: readonly string[]): string =>
  `You have a list of artifacts:
  ${JSON.stringify(names)}

  When the user asks questions about any of the artifacts, you should call the
  \`load_artifacts\` function to load the artifact. Do not generate any text other
  than the function call.
  `;

/** Inline MIME types a model takes as a file part; other inline data reaches it as text (ADK `_as_safe_part_for_llm`). */
const INLINE_FOR_MODELS = /^(image\/(?!svg\+xml)|audio\/|video\/|application\/pdf$)/;
const TEXT_LIKE = /^(text\/|application\/(json|xml|csv)$|image\/svg\+xml$)/;

/** An artifact as the model can take it: text-like bytes as text, other bytes it cannot read as a note. */
function forModel(name: string, artifact: Part): Part {
  const inline = artifact.inlineData;
  if (!inline) return artifact;
  const mimeType = (inline.mimeType.split(";")[0] ?? "").trim();
  if (INLINE_FOR_MODELS.test(mimeType)) return artifact;
  const bytes = Uint8Array.from(atob(inline.data), (ch) => ch.charCodeAt(0));
  if (TEXT_LIKE.test(mimeType)) return { text: new TextDecoder().decode(bytes) };
  const size = (bytes.length / 1024).toFixed(1);
  return {
    text: `[Binary artifact: ${name}, type: ${mimeType}, size: ${size} KB. Content cannot be displayed inline.]`,
  };
}

/**
 * ADK's `load_artifacts` tool. Each request of an agent that has it lists the session's artifacts in the
 * instruction; when the model calls it, the call's answer names the files, and the next request (only
 * the request, never the session) carries their contents after `Artifact <name> is:`. A name not found in
 * the session is tried as `user:<name>`; one not found at all is skipped.
 * @example
 * new LlmAgent({ name: "reader", model: "google:gemini-2.5-flash", tools: [loadArtifactsTool] });
 */
export const loadArtifactsTool: FunctionTool = {
  name: LOAD_ARTIFACTS_DECLARATION.name,
  description: LOAD_ARTIFACTS_DECLARATION.description,
  isLongRunning: false,
  stateScopes: [],
  declaration: () => structuredClone(LOAD_ARTIFACTS_DECLARATION),
  async run(args) {
    const names = Array.isArray(args.artifact_names)
      ? args.artifact_names.filter((n) => typeof n === "string")
      : [];
    return { ok: true, value: { artifact_names: names } };
  },
  async processRequest(request: LlmRequest, ctx: RequestToolContext) {
    const context = ctx.callbackContext;
    if (!context) return;
    const names = await context.listArtifacts();
    if (names.length === 0) return;
    appendInstructions(request, [loadArtifactsInstruction(names)]);
    const response = request.contents.at(-1)?.parts?.[0]?.functionResponse;
    if (response?.name !== LOAD_ARTIFACTS_DECLARATION.name) return;
    const asked = Array.isArray(response.response.artifact_names) ? response.response.artifact_names : [];
    for (const name of asked) {
      if (typeof name !== "string") continue;
      const found =
        (await context.loadArtifact(name)) ??
        (name.startsWith("user:") ? undefined : await context.loadArtifact(`user:${name}`));
      if (found === undefined) continue;
      // A new list: the built one may share its frozen items (and itself) with the stored history.
      request.contents = [
        ...request.contents,
        { role: "user", parts: [{ text: `Artifact ${name} is:` }, forModel(name, found)] },
      ];
    }
  },
};
