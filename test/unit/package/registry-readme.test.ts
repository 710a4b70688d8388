import { describe, expect, it } from "vitest";
import {
  absoluteLinks,
  githubRepository,
  relativeTargets,
} from "../../../scripts/registry-readme/absolute-links.js";

const base = { owner: "acme", name: "baton", ref: "main", isFolder: (path: string) => path === "api" };

describe("the README as the registry shows it", () => {
  it("points relative links at the repository's files and folders, keeping anchors and titles", () => {
    const text = [
      "See [the guide](docs/guide.md#setup) and [the reports](api/), [the log](./CHANGELOG.md 'changes').",
      "[api]: api",
    ].join("\n");
    expect(absoluteLinks(text, base)).toBe(
      [
        "See [the guide](https://github.com/acme/baton/blob/main/docs/guide.md#setup) and " +
          "[the reports](https://github.com/acme/baton/tree/main/api), " +
          "[the log](https://github.com/acme/baton/blob/main/CHANGELOG.md 'changes').",
        "[api]: https://github.com/acme/baton/tree/main/api",
      ].join("\n"),
    );
  });

  it("serves images from raw.githubusercontent.com, in Markdown and in HTML", () => {
    const text = '![the dev UI](docs/shot.png)\n<img src="docs/logo.svg" width="80">';
    expect(absoluteLinks(text, base)).toBe(
      "![the dev UI](https://raw.githubusercontent.com/acme/baton/main/docs/shot.png)\n" +
        '<img src="https://raw.githubusercontent.com/acme/baton/main/docs/logo.svg" width="80">',
    );
  });

  it("leaves absolute URLs, anchors of the page and code alone", () => {
    const text = [
      "[npm](https://www.npmjs.com/package/x), [mail](mailto:a@b.c), [below](#install)",
      "```ts",
      "const link = [x](docs/not-a-link.md);",
      "```",
      "Inline `[y](docs/code.md)` stays.",
    ].join("\n");
    expect(absoluteLinks(text, base)).toBe(text);
    expect(relativeTargets(text)).toEqual([]);
  });

  it("finds every relative link and image left, outside code", () => {
    const text = '[a](docs/a.md) ![b](b.png) <a href="c/">c</a>\n[d]: d.md\n`[e](e.md)`';
    expect(relativeTargets(text)).toEqual(["docs/a.md", "b.png", "d.md", "c/"]);
    expect(relativeTargets(absoluteLinks(text, base))).toEqual([]);
  });

  it("reads the repository from package.json's git URL, and refuses one that is not GitHub's", () => {
    expect(githubRepository("git+https://github.com/acme/baton.git")).toEqual({
      owner: "acme",
      name: "baton",
    });
    expect(githubRepository("https://github.com/acme/baton")).toEqual({ owner: "acme", name: "baton" });
    expect(() => githubRepository("https://gitlab.com/acme/baton")).toThrow(/Not a GitHub repository URL/);
  });
});
