import type { LiveConnectRequest } from "../../core/live-model.js";
import type { ToolDeclaration } from "../../core/llm.js";

/**
 * A declaration as Gemini takes it. The arguments' JSON Schema goes as is in `parametersJsonSchema`
 * (decision 056): Gemini reads JSON Schema there, so no conversion to its OpenAPI subset is needed.
 */
function functionDeclaration(tool: ToolDeclaration): Record<string, unknown> {
  const declaration: Record<string, unknown> = { name: tool.name, description: tool.description };
  if (tool.parameters) {
    const { $schema: _dialect, ...schema } = tool.parameters;
    declaration.parametersJsonSchema = schema;
  }
  return declaration;
}

/** The sampling settings Gemini's `generationConfig` takes from the agent's `generateContentConfig`. */
function sampling(config: LiveConnectRequest["config"]): Record<string, unknown> {
  const { temperature, topP, topK, maxOutputTokens, seed, presencePenalty, frequencyPenalty } = config;
  const fields = { temperature, topP, topK, maxOutputTokens, seed, presencePenalty, frequencyPenalty };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The first client message of a session: `BidiGenerateContentSetup` for `models/<modelId>`. */
export function setupMessage(
  modelId: string,
  request: LiveConnectRequest,
  manualActivity = false,
): { setup: Record<string, unknown> } {
  const generationConfig: Record<string, unknown> = {
    responseModalities: request.responseModalities,
    ...sampling(request.config),
  };
  if (request.voiceName)
    generationConfig.speechConfig = {
      voiceConfig: { prebuiltVoiceConfig: { voiceName: request.voiceName } },
    };
  if (request.affectiveDialog) generationConfig.enableAffectiveDialog = true;
  const setup: Record<string, unknown> = {
    model: modelId.startsWith("models/") ? modelId : `models/${modelId}`,
    generationConfig,
  };
  if (request.systemInstruction) setup.systemInstruction = { parts: [{ text: request.systemInstruction }] };
  if (request.tools.length > 0)
    setup.tools = [{ functionDeclarations: request.tools.map(functionDeclaration) }];
  if (request.sessionResumption || request.resumptionHandle)
    setup.sessionResumption = request.resumptionHandle ? { handle: request.resumptionHandle } : {};
  if (request.inputTranscription) setup.inputAudioTranscription = {};
  if (request.outputTranscription) setup.outputAudioTranscription = {};
  if (request.proactiveAudio) setup.proactivity = { proactiveAudio: true };
  if (manualActivity) setup.realtimeInputConfig = { automaticActivityDetection: { disabled: true } };
  return { setup };
}
