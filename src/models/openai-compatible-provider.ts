import {
  OpenAICompatibleChatLanguageModel,
  type ProviderErrorStructure,
  VERSION,
} from "@ai-sdk/openai-compatible";
import {
  EmptyResponseBodyError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamResult,
  type SharedV3Warning,
} from "@ai-sdk/provider";
import {
  combineHeaders,
  createJsonErrorResponseHandler,
  extractResponseHeaders,
  postJsonToApi,
  withoutTrailingSlash,
  withUserAgentSuffix,
} from "@ai-sdk/provider-utils";
import { ChatErrorSchema } from "./chat-chunk.js";
import { chatCompletionParts } from "./chat-completion-parts.js";
import { type ModelProvider, optionalSetting, requiredSetting } from "./model-provider.js";

/**
 * `openai-compatible:<model>`: any Chat Completions server (Ollama, vLLM, OpenRouter…) at
 * `OPENAI_COMPATIBLE_BASE_URL`, with `OPENAI_COMPATIBLE_API_KEY` when it needs one.
 * @example
 * import { openaiCompatible } from "@baton-agents/core/models/openai-compatible";
 * createWorker({ apps: [helpdesk], models: [openaiCompatible()] });
 */
export function openaiCompatible(): ModelProvider {
  return {
    name: "openai-compatible",
    model(modelId, env, spec) {
      const apiKey = optionalSetting(env, "OPENAI_COMPATIBLE_API_KEY");
      const baseURL = requiredSetting(env, "OPENAI_COMPATIBLE_BASE_URL", spec);
      return chatModel(modelId, { baseURL, ...(apiKey ? { apiKey } : {}) });
    },
  };
}

const PROVIDER = "openai-compatible";

const ERRORS: ProviderErrorStructure<{ error: { message: string } }> = {
  errorSchema: ChatErrorSchema,
  errorToMessage: (data) => data.error.message,
};

/** A failed answer as the SDK reports one: an `APICallError` with the server's message and retry flag. */
const failedResponse = createJsonErrorResponseHandler(ERRORS);

/** A streamed call's request as the AI SDK built it, thrown from its request hook to stop it there. */
class StreamRequest {
  constructor(
    readonly body: Record<string, unknown>,
    readonly warnings: SharedV3Warning[],
  ) {}
}

/**
 * The AI SDK's chat model, whose streamed answers Baton reads itself. The SDK builds every request (the
 * prompt's messages, tools, settings, provider options, warnings) and answers every unstreamed call; a
 * streamed call takes the SDK's request, sends it with the SDK's `postJsonToApi` (same headers, same
 * errors and retry flags) and reads the body in one stream (`chatCompletionParts`) instead of the SDK's
 * five. Decision 042.
 */
function chatModel(modelId: string, settings: { baseURL: string; apiKey?: string }): LanguageModelV3 {
  const baseURL = withoutTrailingSlash(settings.baseURL) ?? settings.baseURL;
  const urlOf = (path: string) => new URL(`${baseURL}${path}`).toString();
  const url = urlOf("/chat/completions");
  // The same on every call: built once (the SDK builds it per call, through a `Headers`).
  const headers = withUserAgentSuffix(
    settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {},
    `ai-sdk/openai-compatible/${VERSION}`,
  );
  const config = {
    provider: `${PROVIDER}.chat`,
    url: ({ path }: { path: string }) => urlOf(path),
    headers: () => headers,
    includeUsage: true,
    errorStructure: ERRORS,
  };
  const sdk = new OpenAICompatibleChatLanguageModel(modelId, config);
  // A second SDK model builds streamed requests only: its request hook hands each back to Baton unsent.
  // (Not one model deciding by `args.stream`: a provider option can set that key on any request.)
  let requests: OpenAICompatibleChatLanguageModel | undefined;
  const streamRequests = () =>
    (requests ??= new OpenAICompatibleChatLanguageModel(modelId, {
      ...config,
      transformRequestBody: (args, warnings) => {
        throw new StreamRequest(args, warnings ?? []);
      },
    }));

  async function streamRequest(options: LanguageModelV3CallOptions): Promise<StreamRequest> {
    try {
      await streamRequests().doStream(options);
    } catch (thrown) {
      if (thrown instanceof StreamRequest) return thrown;
      throw thrown;
    }
    throw new Error("The AI SDK sent a streamed chat request Baton meant to send.");
  }

  return {
    specificationVersion: "v3",
    provider: sdk.provider,
    modelId,
    get supportedUrls() {
      return sdk.supportedUrls;
    },
    doGenerate: (options) => sdk.doGenerate(options),
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const { body, warnings } = await streamRequest(options);
      const { value, responseHeaders } = await postJsonToApi({
        url,
        headers: combineHeaders(headers, options.headers),
        body,
        failedResponseHandler: failedResponse,
        successfulResponseHandler: async ({ response }) => {
          if (response.body == null) throw new EmptyResponseBodyError({});
          return {
            value: { body: response.body, statusCode: response.status },
            responseHeaders: extractResponseHeaders(response),
          };
        },
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      const stream = chatCompletionParts(value.body, {
        url,
        statusCode: value.statusCode,
        responseHeaders: responseHeaders ?? {},
        requestBodyValues: body,
        warnings,
        metadataKey: metadataKey(options),
        includeRawChunks: options.includeRawChunks === true,
      });
      return {
        stream,
        request: { body },
        ...(responseHeaders ? { response: { headers: responseHeaders } } : {}),
      };
    },
  };
}

/** Metadata goes back under the provider-options key the call used: `openaiCompatible` if it used that one. */
function metadataKey(options: LanguageModelV3CallOptions): string {
  return options.providerOptions?.openaiCompatible != null ? "openaiCompatible" : PROVIDER;
}
