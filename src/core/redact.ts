/**
 * Secrets out of error text: model providers (and Gemini Live's close reasons) sometimes echo a key, partly
 * masked or in a URL's query. One scrubber for every model port, so none of them lets a key reach an event.
 */
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-[\w*-]{6,}/g,
  /\bAIza[\w-]{10,}/g,
  /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi,
  /([?&](?:key|api[_-]?key|token)=)[^&\s]+/gi,
];

/** Removes anything shaped like an API key and keeps the message short. */
export function redact(message: string): string {
  const clean = SECRET_PATTERNS.reduce((text, pattern) => text.replace(pattern, "[redacted]"), message);
  return clean.length > 300 ? `${clean.slice(0, 297)}...` : clean;
}
