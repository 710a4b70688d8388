import { type GenerateContentConfig, GenerateContentConfigSchema } from "../core/generate-content-config.js";
import { AgentConfigError, configMessage } from "./config-error.js";

const FIELD = "generate_content_config";
const camel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * YAML `generate_content_config` (genai field names, snake_case or camelCase as genai accepts them) as
 * Baton's `generateContentConfig`. The top-level keys are renamed; a `response_schema` is user data and
 * is kept as written. A field Baton does not send is an error listing the accepted ones.
 */
export function generateContentConfig(raw: Record<string, unknown>, file: string): GenerateContentConfig {
  const renamed = Object.fromEntries(Object.entries(raw).map(([key, value]) => [camel(key), value]));
  const parsed = GenerateContentConfigSchema.safeParse(renamed);
  if (parsed.success) return parsed.data;
  const accepted = Object.keys(GenerateContentConfigSchema.shape).map(snake).join(", ");
  const lines = parsed.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) =>
        configMessage(file, `${FIELD}.${snake(key)}`, `unknown field "${snake(key)}"; accepted: ${accepted}`),
      );
    }
    const at = issue.path.map(String).map(snake).join(".");
    return [configMessage(file, `${FIELD}${at === "" ? "" : `.${at}`}`, issue.message)];
  });
  throw new AgentConfigError(lines.join("\n"));
}
