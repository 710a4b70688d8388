/**
 * The fenced code blocks of a Markdown guide, with what their info string says of them: the language, the
 * project file a block is (`file=src/worker.ts`), and whether its commands are run by a test (`no-run`
 * marks a block that cannot run offline, such as a deploy). Tests and benches build the projects the
 * guides describe from these blocks, so a guide's code is what is checked.
 */
export interface DocBlock {
  lang: string;
  /** The project file this block is, when its info string names one. */
  file?: string;
  /** `false` for a block marked `no-run`. */
  runs: boolean;
  text: string;
  /** The block's first line in the guide, from 1. */
  line: number;
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;

export function docBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE.exec(lines[i] ?? "");
    if (!open) continue;
    const [, fence = "```", info = ""] = open;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? "").startsWith(fence)) {
      body.push(lines[j] ?? "");
      j += 1;
    }
    const file = words.find((word) => word.startsWith("file="))?.slice("file=".length);
    blocks.push({
      lang: words[0] ?? "",
      ...(file === undefined ? {} : { file }),
      runs: !words.includes("no-run"),
      text: `${body.join("\n")}\n`,
      line: i + 2,
    });
    i = j;
  }
  return blocks;
}

/** The files a guide's blocks make, by path. */
export const docFiles = (markdown: string): Map<string, string> =>
  new Map(docBlocks(markdown).flatMap((b) => (b.file === undefined ? [] : [[b.file, b.text] as const])));

/** The packages a guide's `npm install …` line adds (its first), in order. */
export function docInstall(markdown: string): string[] {
  for (const block of docBlocks(markdown)) {
    if (block.lang !== "sh") continue;
    for (const line of block.text.split("\n")) {
      const words = line.trim().split(/\s+/);
      if (words[0] === "npm" && words[1] === "install")
        return words.slice(2).filter((w) => !w.startsWith("-"));
    }
  }
  return [];
}
