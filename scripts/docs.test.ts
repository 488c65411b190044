// The project's docs are in the repository (README.md and docs/) and cite nothing outside it.
// 1. No file cites a note that a person who clones the project does not have: the old design,
//    provider, media, faces, client and conventions notes by name, or a `../shared/...` path that
//    leaves the repository or names nothing in it (imports of the project's own `shared/` resolve
//    inside it and exist, so they pass).
// 2. Every relative link in README.md and docs/*.md points to a file or folder that exists.
// The note names are assembled from pieces so that this file does not cite them itself.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
/** Not the project's files: dependencies, git, caches and run-time output (.gitignore). */
const SELF = resolve(import.meta.dirname, "docs.test.ts");
const SKIP = new Set(["node_modules", ".git", ".cache", "data", "test-results", "tmp"]);

const md = (name: string) => `${name}.md`;
const NOTE_NAMES: { name: string; re: RegExp }[] = [
  { name: md("DESIGN"), re: new RegExp(`\\b${"DESIGN"}(\\.md\\b|:?\\s*")`) },
  { name: md("PROVIDERS"), re: new RegExp(`\\b${"PROVIDERS"}\\.md\\b`) },
  { name: "MEDIA-" + "NOTES", re: new RegExp(`\\b${"MEDIA-" + "NOTES"}\\b`) },
  { name: md("FACES"), re: new RegExp(`\\b${"FACES"}\\.md\\b`) },
  { name: "CLIENT-" + "NOTES", re: new RegExp(`\\b${"CLIENT-" + "NOTES"}\\b`) },
  { name: md("CONVENTIONS"), re: new RegExp(`\\b${"CONVENTIONS"}(\\.md\\b|\\s+\\d)`) },
];
/** A relative path into a `shared` folder one or more levels up. */
const SHARED_PATH = /(?:\.\.\/)+shared\/[^\s"'`)\]>,;:]*/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function textOf(path: string): string | undefined {
  if (statSync(path).size > 2_000_000) return undefined;
  const buf = readFileSync(path);
  if (buf.subarray(0, 8000).includes(0)) return undefined; // binary
  return buf.toString("utf8");
}

export interface Citation {
  file: string;
  line: number;
  what: string;
}

/** Citations of notes outside the repository in one file's text. */
export function outsideCitations(root: string, file: string, text: string): Citation[] {
  const found: Citation[] = [];
  const rel = relative(root, file);
  text.split("\n").forEach((line, i) => {
    for (const { name, re } of NOTE_NAMES) if (re.test(line)) found.push({ file: rel, line: i + 1, what: name });
    for (const m of line.matchAll(SHARED_PATH)) {
      const target = resolve(dirname(file), m[0].replace(/[.]+$/, ""));
      const inside = target === root || target.startsWith(root + sep);
      if (!inside || !existsSync(target)) found.push({ file: rel, line: i + 1, what: m[0] });
    }
  });
  return found;
}

export function brokenLinks(root: string, file: string, text: string): Citation[] {
  const found: Citation[] = [];
  const rel = relative(root, file);
  const noCode = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, " "));
  noCode.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const href = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) continue; // a URL or an anchor
      const path = decodeURIComponent(href.split("#")[0]);
      if (!existsSync(resolve(dirname(file), path))) found.push({ file: rel, line: i + 1, what: href });
    }
  });
  return found;
}

const docsFiles = () => [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, "docs", f)),
];

describe("the docs live in the repository", () => {
  it("no file cites a note outside the repository", () => {
    const found: Citation[] = [];
    for (const file of walk(ROOT)) {
      if (file === SELF) continue; // its own fixtures below
      const text = textOf(file);
      if (text !== undefined) found.push(...outsideCitations(ROOT, file, text));
    }
    expect(found.map((c) => `${c.file}:${c.line}: ${c.what}`)).toEqual([]);
  });

  it("every relative link in README.md and docs/*.md points to something that exists", () => {
    const found = docsFiles().flatMap((file) => brokenLinks(ROOT, file, readFileSync(file, "utf8")));
    expect(found.map((c) => `${c.file}:${c.line}: ${c.what}`)).toEqual([]);
  });

  it("README.md links every file in docs/", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const missing = docsFiles()
      .slice(1)
      .map((f) => `docs/${relative(join(ROOT, "docs"), f)}`)
      .filter((f) => !readme.includes(`](${f})`));
    expect(missing).toEqual([]);
  });

  it("the checks catch what they should", () => {
    const file = join(ROOT, "box", "x", "y.ts");
    const cite = (s: string) => outsideCitations(ROOT, file, s).map((c) => c.what);
    expect(cite(`// see ${md("DESIGN")} "The media path"`)).toEqual([md("DESIGN")]);
    expect(cite(`// ${"DESIGN"} "Own faces"`)).toEqual([md("DESIGN")]);
    expect(cite(`// (${md("PROVIDERS")} 1.2)`)).toEqual([md("PROVIDERS")]);
    expect(cite(`// (${"CONVENTIONS"} 4)`)).toEqual([md("CONVENTIONS")]);
    expect(cite(`// ../../../shared/notes.md`)).toEqual(["../../../shared/notes.md"]); // leaves the repository
    expect(cite(`// ../shared/nothing-here.md`)).toEqual(["../shared/nothing-here.md"]); // names nothing
    expect(cite(`import { ApiError } from "../../shared/errors/api-error.ts";`)).toEqual([]);
    expect(cite(`// docs/architecture.md "The media path of one live session"`)).toEqual([]);
    const readme = join(ROOT, "README.md");
    expect(brokenLinks(ROOT, readme, "[a](docs/nope.md) [b](https://x.test/) [c](#top) [d](docs/screenshots)").map((c) => c.what)).toEqual([
      "docs/nope.md",
    ]);
  });
});
