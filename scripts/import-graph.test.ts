// The product's value-import graph has no cycle (type-only imports are erased and are not edges),
// and the low folders stay low: box/text/ and the multipart reader import nothing of the box's
// features. The fixture proves the cycle finder sees a value cycle and ignores a type-only one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cycles, importGraph } from "./import-graph.ts";

const ROOT = resolve(import.meta.dirname, "..");
const graph = importGraph(ROOT);

describe("the import graph", () => {
  it("walks the product code of box/, portal/ and shared/", () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get("box/main.ts")?.length).toBeGreaterThan(0);
  });

  it("has no cycle of value imports", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("keeps the low folders low: box/text/ and box/http/multipart.ts import no box feature (only box/text/, box/http/, shared/)", () => {
    const low = [...graph.entries()].filter(([f]) => f.startsWith("box/text/") || f === "box/http/multipart.ts");
    expect(low.length).toBeGreaterThan(1);
    const upward = low.flatMap(([f, to]) =>
      to.filter((t) => t.startsWith("box/") && !t.startsWith("box/text/") && !t.startsWith("box/http/")).map((t) => `${f} -> ${t}`),
    );
    expect(upward).toEqual([]);
  });
});

describe("the cycle finder", () => {
  const dir = mkdtempSync(join(tmpdir(), "import-graph-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };

  it("finds a value cycle and not a type-only one", () => {
    write("box/a.ts", 'import { b } from "./b.ts";\nexport const a = () => b;\n');
    write("box/b.ts", 'import { a } from "./a.ts";\nexport const b = () => a;\n');
    write("box/c.ts", 'import type { D } from "./d.ts";\nexport type C = D;\n');
    write("box/d.ts", 'import { type C } from "./c.ts";\nexport type D = C | 1;\n');
    expect(cycles(importGraph(dir, ["box"]))).toEqual([["box/a.ts", "box/b.ts"]]);
  });
});
