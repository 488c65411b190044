// The value-import graph of the product code (box/, portal/, shared/; tests and testing/ left
// out) and its cycles. A type-only import (`import type`, `export type`, or every name marked
// `type`) is erased at compile time and cannot form a cycle at run time, so it is not an edge.
// Used by scripts/import-graph.test.ts; `node_modules/.bin/bun scripts/import-graph.ts` prints the cycles.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.split("/").includes("testing");

function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.ES2022,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const lit = (n: ts.Node | undefined) => (n && ts.isStringLiteralLike(n) ? n.text : null);
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c?.isTypeOnly) continue;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : null;
      if (c && !c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)) continue;
      const s = lit(st.moduleSpecifier);
      if (s) out.push(s);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      if (st.isTypeOnly) continue;
      const named = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : null;
      if (named && named.length > 0 && named.every((e) => e.isTypeOnly)) continue;
      const s = lit(st.moduleSpecifier);
      if (s) out.push(s);
    }
  }
  return out;
}

/** Product files (relative to root) and their value imports of other product files. */
export function importGraph(root: string, dirs = ["box", "portal", "shared"]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const d of dirs) {
    for (const f of readdirSync(join(root, d), { recursive: true, encoding: "utf8" })) {
      const rel = join(d, f);
      if (!/\.tsx?$/.test(f) || isTest(rel) || rel.includes("node_modules")) continue;
      const abs = join(root, rel);
      const edges = valueImports(abs)
        .filter((s) => s.startsWith("."))
        .map((s) => resolve(dirname(abs), s))
        .filter((t) => existsSync(t))
        .map((t) => relative(root, t))
        .filter((t) => !isTest(t));
      graph.set(rel, edges);
    }
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): the cycles. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(),
    low = new Map<string, number>(),
    on = new Set<string>(),
    stack: string[] = [];
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index), low.set(v, index++), stack.push(v), on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) strong(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do (w = stack.pop()!), on.delete(w), comp.push(w);
      while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

if (import.meta.main) {
  const found = cycles(importGraph(resolve(import.meta.dirname, "..")));
  console.log(JSON.stringify({ cycles: found.length, components: found }, null, 1));
}
