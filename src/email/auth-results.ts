/** One method's verdict in an `Authentication-Results` header: `dkim=pass header.d=example.com`. */
export interface AuthVerdict {
  method: string;
  result: string;
  /** Its properties, keys lower-case: `header.d`, `header.from`, `smtp.mailfrom`. */
  props: Readonly<Record<string, string>>;
}

/** Drops RFC 5322 comments (`(…)`, nested), which may hold `;` or `=`. */
const withoutComments = (value: string): string => {
  let depth = 0;
  let out = "";
  for (const char of value) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
  }
  return out;
};

/**
 * Parses one `Authentication-Results` header (RFC 8601): its `authserv-id` and each method's result with
 * its properties. Lenient: a part it cannot read is skipped, which can only make a check fail.
 */
export function parseAuthResults(header: string): { authservId: string; verdicts: AuthVerdict[] } {
  const [first = "", ...parts] = withoutComments(header).split(";");
  const authservId = first.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const verdicts = parts.flatMap((part): AuthVerdict[] => {
    const tokens = part.trim().split(/\s+/);
    const [head, ...rest] = tokens;
    const match = head?.match(/^([a-z0-9-]+)(?:\/[0-9]+)?=([a-z]+)$/i);
    if (!match?.[1] || !match[2]) return [];
    const props: Record<string, string> = {};
    for (const token of rest) {
      const at = token.indexOf("=");
      if (at > 0) props[token.slice(0, at).toLowerCase()] = token.slice(at + 1).replace(/^"|"$/g, "");
    }
    return [{ method: match[1].toLowerCase(), result: match[2].toLowerCase(), props }];
  });
  return { authservId, verdicts };
}
