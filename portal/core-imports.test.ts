// The portal's core is Web-standard: portal/app.ts and every file it imports, transitively, within
// the repository, import no `node:` or `bun:` module (nor a bare Node built-in such as "fs", nor
// "bun"), and load no native code (a value import of @libsql/client's Node build, of
// `drizzle-orm/libsql`, whose driver imports that build, of sharp ...). Runtime modules belong to
// the entries (portal/server.ts for Bun, portal/deno.ts for Deno), which inject them. Imports are
// read with the TypeScript parser (static, re-exports, side-effect, dynamic `import()`, `require`),
// so a comment or a string that merely mentions "node:fs" is not one. The fixtures below prove the
// check fails when it should.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

interface ImportRef {
  specifier: string;
  /** Erased at compile time (`import type`, all-type named imports, `import("x").T` in a type). */
  typeOnly: boolean;
}

export interface Violation {
  file: string;
  specifier: string;
  why: string;
}

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));
/** Packages that load native code when imported for their values (a type import is erased). */
const NATIVE: Record<string, string> = {
  "@libsql/client": "@libsql/client's Node build loads the native libSQL binding (use a type import; the entry passes the client)",
  "@libsql/client/node": "the native libSQL binding",
  "@libsql/client/sqlite3": "the native libSQL binding",
  libsql: "the native libSQL binding",
  "drizzle-orm/libsql": "drizzle-orm/libsql's driver imports @libsql/client's Node build (use drizzle-orm/libsql/web)",
  "drizzle-orm/libsql/node": "imports @libsql/client's Node build",
  "drizzle-orm/libsql/sqlite3": "imports @libsql/client's Node build",
  sharp: "sharp is a native addon",
  "onnxruntime-node": "a native addon",
  koffi: "a native FFI addon",
  "@roamhq/wrtc": "a native addon",
};

function importsOf(file: string): ImportRef[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.ES2022,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: ImportRef[] = [];
  const literal = (n: ts.Node | undefined) => (n && ts.isStringLiteralLike(n) ? n.text : null);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const spec = literal(node.moduleSpecifier)!;
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypeOnly =
        !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && allNamedTypeOnly));
      found.push({ specifier: spec, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      const allTypeOnly = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      found.push({ specifier: literal(node.moduleSpecifier)!, typeOnly: node.isTypeOnly || allTypeOnly });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const spec = literal(node.moduleReference.expression);
      if (spec) found.push({ specifier: spec, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node)) {
      const dynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const req = ts.isIdentifier(node.expression) && node.expression.text === "require";
      const spec = literal(node.arguments[0]);
      if ((dynamicImport || req) && spec) found.push({ specifier: spec, typeOnly: false });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      const spec = ts.isLiteralTypeNode(arg) ? literal(arg.literal) : null;
      if (spec) found.push({ specifier: spec, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function runtimeModule(spec: string): string | null {
  if (spec.startsWith("node:")) return "a Node built-in (node:)";
  if (spec.startsWith("bun:")) return "a Bun built-in (bun:)";
  if (spec === "bun") return "Bun's own module";
  if (BUILTINS.has(spec) || BUILTINS.has(spec.split("/")[0])) return "a Node built-in";
  return null;
}

/** Walks the import graph from `entry` within `root`; returns the files reached and what breaks the rule. */
export function checkCoreImports(entry: string, root: string): { files: string[]; violations: Violation[] } {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  const pending = [resolve(entry)];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const rel = relative(root, file);
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (specifier.startsWith(".") || specifier.startsWith("/")) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target))
          violations.push({ file: rel, specifier, why: "does not resolve to a file (imports carry their extension)" });
        else if (!relative(root, target).startsWith("..")) pending.push(target);
        continue;
      }
      const runtime = runtimeModule(specifier);
      if (runtime) violations.push({ file: rel, specifier, why: `${runtime}: the entry injects what needs it` });
      else if (!typeOnly && NATIVE[specifier]) violations.push({ file: rel, specifier, why: NATIVE[specifier] });
    }
  }
  return { files: [...seen].map((f) => relative(root, f)).sort(), violations };
}

const ROOT = resolve(import.meta.dirname, "..");

describe("the portal's core (everything portal/app.ts imports)", () => {
  const { files, violations } = checkCoreImports(join(ROOT, "portal/app.ts"), ROOT);

  it("imports no node: or bun: module, no Node built-in and no native code", () => {
    expect(violations).toEqual([]);
  });

  it("is the whole graph: routes, services, stores, the studio's pages and the shared modules they use", () => {
    expect(files.length).toBeGreaterThan(80);
    for (const f of [
      "portal/app.ts",
      "portal/studio/routes.ts",
      "portal/studio/layout.tsx",
      "portal/proxy/forward.ts",
      "portal/consent/ledger.ts",
      "shared/voice-keys/crypto.ts",
      "shared/errors/api-error.ts",
    ]) {
      expect(files).toContain(f);
    }
    // The entries' runtime modules stay outside it.
    for (const f of [
      "portal/server.ts",
      "portal/deno.ts",
      "portal/wiring.ts",
      "portal/entry-lifecycle.ts",
      "portal/db/bun-sqlite-reads.ts",
      "portal/proxy/bun-websocket.ts",
      "portal/sign-in/outbox-mailer.ts",
      "portal/studio/bun-bundle.ts",
    ]) {
      expect(files).not.toContain(f);
    }
  });
});

describe("the check itself, on fixtures", () => {
  const dir = mkdtempSync(join(tmpdir(), "core-imports-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  };

  it("passes a clean graph, whatever its comments and strings say", () => {
    write(
      "clean/app.ts",
      'import { b } from "./b.ts";\nimport type { Client } from "@libsql/client";\nimport { Hono } from "hono";\n// import { readFileSync } from "node:fs";\nexport const s = "node:fs";\nexport { b };\n',
    );
    write(
      "clean/b.ts",
      'import { type Foo } from "sharp";\nexport type { Bar } from "bun:sqlite-is-types-only-here-but-still-named";\nexport const b = 1;\n',
    );
    const r = checkCoreImports(join(dir, "clean/app.ts"), dir);
    expect(r.files).toEqual(["clean/app.ts", "clean/b.ts"]);
    // A type-only re-export of a bun: module is still a bun: module.
    expect(r.violations).toEqual([
      { file: "clean/b.ts", specifier: "bun:sqlite-is-types-only-here-but-still-named", why: expect.stringContaining("bun:") },
    ]);
  });

  it("fails on each way a runtime module or native code gets in, however deep", () => {
    write("bad/app.ts", 'export * from "./routes.ts";\nimport "./side.ts";\n');
    write(
      "bad/routes.ts",
      'import { page } from "./deep/page.tsx";\nimport { drizzle } from "drizzle-orm/libsql";\nexport const r = [page, drizzle];\n',
    );
    write("bad/deep/page.tsx", 'export const page = () => <p>{String(import("node:fs"))}</p>;\nimport fs = require("fs");\nvoid fs;\n');
    write(
      "bad/side.ts",
      'import { Database } from "bun:sqlite";\nimport { createClient } from "@libsql/client";\nimport { spawn } from "child_process";\nimport { $ } from "bun";\nimport { x } from "./missing.ts";\nvoid [Database, createClient, spawn, $, x];\n',
    );
    const r = checkCoreImports(join(dir, "bad/app.ts"), dir);
    expect(r.files).toEqual(["bad/app.ts", "bad/deep/page.tsx", "bad/routes.ts", "bad/side.ts"]);
    expect(r.violations.map((v) => `${v.file} ${v.specifier}`).sort()).toEqual(
      [
        "bad/deep/page.tsx fs",
        "bad/deep/page.tsx node:fs",
        "bad/routes.ts drizzle-orm/libsql",
        "bad/side.ts ./missing.ts",
        "bad/side.ts @libsql/client",
        "bad/side.ts bun",
        "bad/side.ts bun:sqlite",
        "bad/side.ts child_process",
      ].sort(),
    );
  });

  it("would fail on the real core if app.ts imported a runtime module", () => {
    // A copy of app.ts (outside the repository, its imports made absolute) with one Node import: the
    // walk from it reaches the real core and objects to that one line only.
    const real = readFileSync(join(ROOT, "portal/app.ts"), "utf8")
      .replaceAll('from "./', `from "${ROOT}/portal/`)
      .replaceAll('from "../', `from "${ROOT}/`);
    const copy = join(dir, "app-copy.ts");
    writeFileSync(copy, `import { readFileSync } from "node:fs";\nvoid readFileSync;\n${real}`);
    const r = checkCoreImports(copy, ROOT);
    expect(r.files.length).toBeGreaterThan(80);
    expect(r.violations).toEqual([{ file: relative(ROOT, copy), specifier: "node:fs", why: expect.any(String) }]);
  });
});
