import { firstNumber, keywords, overlap, rawWords } from "./words.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const typeOf = (schema: Record<string, unknown>): string | undefined => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return typeof type === "string" ? type : undefined;
};

// Properties that want the user's whole sentence rather than one word of it.
const WHOLE_TEXT = /^(query|q|text|question|message|prompt|input|content|search|request)$/i;
// The words that make a property an identifier: its name's last word ("invoice_number", "orderId", "ref_no")
// or a word of its description ("The invoice number").
const ID_NAME_ENDS = new Set("id ids number num no nr code ref reference identifier".split(" "));
const ID_DESCRIPTION_WORDS = new Set(["id", "identifier", "number", "code", "reference"]);

/** A name's words: snake_case, kebab-case and camelCase split, lower-cased. */
const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");

/** Whether a string property holds an identifier (a number, code or reference), from its name and description. */
const isIdLike = (name: string, schema: Record<string, unknown>): boolean =>
  ID_NAME_ENDS.has(nameWords(name).at(-1) ?? "") ||
  nameWords(String(schema.description ?? "")).some((w) => ID_DESCRIPTION_WORDS.has(w));

/**
 * One word (or run of capitalised words) of the user's text for a string property: words that merely
 * repeat the tool's or property's own vocabulary are skipped; an id-like property takes the first word
 * with a digit, however short ("42", "#7", "INV-042"); otherwise the first capitalised run after the
 * first word (a name: "New York"), else the last word.
 */
function stringValue(
  name: string,
  schema: Record<string, unknown>,
  text: string,
  toolWords: Set<string>,
): string {
  if (WHOLE_TEXT.test(name)) return text;
  const own = new Set([...toolWords, ...keywords(name), ...keywords(String(schema.description ?? ""))]);
  const words = rawWords(text);
  const unlike = (w: string) => overlap(keywords(w), own) === 0;
  const candidate = (w: string) => keywords(w).size > 0 && unlike(w);
  if (isIdLike(name, schema)) {
    // An identifier is often shorter than a keyword ("42"): a digit makes the word, not its length.
    const id = words.find((w) => /\d/.test(w) && unlike(w));
    if (id) return id;
  }
  const start = words.findIndex((w, i) => i > 0 && /^\p{Lu}/u.test(w) && candidate(w));
  if (start > 0) {
    const run = [];
    for (let i = start; i < words.length && /^\p{Lu}/u.test(words[i] ?? ""); i++) run.push(words[i]);
    return run.join(" ");
  }
  return words.filter(candidate).at(-1) ?? text;
}

function valueFor(
  name: string,
  schema: Record<string, unknown>,
  text: string,
  toolWords: Set<string>,
  required: boolean,
): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const userWords = keywords(text);
    return (
      schema.enum.find((v) => overlap(keywords(String(v)), userWords) > 0) ??
      (required ? schema.enum[0] : undefined)
    );
  }
  const number = firstNumber(text);
  switch (typeOf(schema)) {
    case "string":
      return stringValue(name, schema, text, toolWords);
    case "number":
      return number ?? (required ? 0 : undefined);
    case "integer":
      return number === undefined ? (required ? 0 : undefined) : Math.trunc(number);
    case "boolean":
      return required ? true : undefined;
    case "array":
      if (isRecord(schema.items) && typeOf(schema.items) === "string") {
        return [stringValue(name, schema.items, text, toolWords)];
      }
      return required ? [] : undefined;
    case "object":
      return required ? {} : undefined;
    default:
      return required ? text : undefined;
  }
}

/**
 * Arguments for a tool call, built from its JSON Schema and the user's text: strings get a relevant word
 * (or the whole text for query-like names), numbers the first number in the text, enums the value the
 * user mentions. Optional properties with nothing to fill them are left out.
 */
export function argumentsFor(schema: unknown, text: string, toolWords: Set<string>): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const value = valueFor(name, property, text, toolWords, required.has(name));
    if (value !== undefined) args[name] = value;
  }
  return args;
}
