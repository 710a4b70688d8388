/**
 * The README as the registry shows it: npm's page has no repository to resolve a relative link or image
 * against, so the packed README points each one at the repository (package.json `repository`).
 */

/** `git+https://github.com/o/r.git` (package.json `repository.url`) → `https://github.com/o/r`. */
export function githubRepository(url: string): { owner: string; name: string } {
  const match = /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url);
  if (!match?.[1] || !match[2]) throw new Error(`Not a GitHub repository URL: ${url}`);
  return { owner: match[1], name: match[2] };
}

export interface LinkBase {
  owner: string;
  name: string;
  /** The branch or tag the links name. */
  ref: string;
  /** Whether a repository path is a folder (GitHub shows folders under `tree/`, files under `blob/`). */
  isFolder(path: string): boolean;
}

/** A link target that is already absolute (a scheme, a protocol-relative URL) or an anchor of this page. */
const absolute = (target: string): boolean => /^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(target);

/** The repository path a relative target names, without `./`, and its `#anchor` or `?query`. */
function splitTarget(target: string): { path: string; rest: string } {
  const at = target.search(/[#?]/);
  const path = (at < 0 ? target : target.slice(0, at)).replace(/^\.\//, "").replace(/^\//, "");
  return { path, rest: at < 0 ? "" : target.slice(at) };
}

function linkUrl(target: string, base: LinkBase): string {
  if (absolute(target)) return target;
  const { path, rest } = splitTarget(target);
  const kind = path === "" || path.endsWith("/") || base.isFolder(path) ? "tree" : "blob";
  return `https://github.com/${base.owner}/${base.name}/${kind}/${base.ref}/${path.replace(/\/$/, "")}${rest}`;
}

function imageUrl(target: string, base: LinkBase): string {
  if (absolute(target)) return target;
  const { path, rest } = splitTarget(target);
  return `https://raw.githubusercontent.com/${base.owner}/${base.name}/${base.ref}/${path}${rest}`;
}

/** One stretch of Markdown outside code: inline links and images, reference definitions, HTML `src`/`href`. */
function rewriteProse(text: string, base: LinkBase): string {
  return text
    .replace(
      /(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^)\s]+)((?:\s+(?:"[^"]*"|'[^']*'))?\s*)\)/g,
      (_all, bang, label, raw, title) => {
        const target = raw.startsWith("<") ? raw.slice(1, -1) : raw;
        const url = bang === "!" ? imageUrl(target, base) : linkUrl(target, base);
        return `${bang}[${label}](${url}${title})`;
      },
    )
    .replace(/^( {0,3}\[[^\]]+\]:\s*)(\S+)/gm, (_all, head, target) => `${head}${linkUrl(target, base)}`)
    .replace(/(<img\b[^>]*\bsrc=)(["'])([^"']+)\2/gi, (_all, head, quote, target) => {
      return `${head}${quote}${imageUrl(target, base)}${quote}`;
    })
    .replace(/(<a\b[^>]*\bhref=)(["'])([^"']+)\2/gi, (_all, head, quote, target) => {
      return `${head}${quote}${linkUrl(target, base)}${quote}`;
    });
}

/**
 * `markdown` with every relative link and image made absolute on GitHub: links to
 * `github.com/<owner>/<name>/blob|tree/<ref>/<path>`, images to `raw.githubusercontent.com`. Fenced
 * and inline code are left as written.
 */
export function absoluteLinks(markdown: string, base: LinkBase): string {
  const fenced = markdown.split(/(^ {0,3}(?:```|~~~)[^\n]*\n[\s\S]*?^ {0,3}(?:```|~~~)[ \t]*$)/m);
  return fenced
    .map((chunk, i) => {
      if (i % 2 === 1) return chunk;
      // Inline code spans stay as written: split them out the same way.
      return chunk
        .split(/(`+[^`]*?`+)/)
        .map((part, j) => (j % 2 === 1 ? part : rewriteProse(part, base)))
        .join("");
    })
    .join("");
}

/** The relative links and images left in `markdown` (outside code): what a test expects to be none. */
export function relativeTargets(markdown: string): string[] {
  const found: string[] = [];
  const record = (target: string) => {
    if (!absolute(target)) found.push(target);
    return "";
  };
  const fenced = markdown.split(/^ {0,3}(?:```|~~~)[^\n]*\n[\s\S]*?^ {0,3}(?:```|~~~)[ \t]*$/m);
  for (const chunk of fenced)
    for (const part of chunk.split(/`+[^`]*?`+/)) {
      for (const m of part.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?/g)) record(m[1] ?? "");
      for (const m of part.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) record(m[1] ?? "");
      for (const m of part.matchAll(/<(?:img|a)\b[^>]*\b(?:src|href)=["']([^"']+)["']/gi)) record(m[1] ?? "");
    }
  return found;
}
