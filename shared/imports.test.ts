// shared/ knows no plane: every non-test file under shared/, and every file it reaches, imports
// nothing from box/ or portal/ (nor anything else outside shared/), not even a type. What crosses
// a plane lives in shared/wire/ and both planes import it from there. Test files are left out on
// purpose: the client library's integration tests start a real box and portal (box/testing/,
// portal/testing/) to talk to. Imports are read with the TypeScript parser (static, re-exports,
// side-effect, dynamic `import()`, `require`, `import("x").T`), so a comment that merely mentions
// a path is not one. The fixtures below prove the check fails when it should.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

function specifiersOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, kind);
  const found: string[] = [];
  const literal = (n: ts.Node | undefined) => (n && ts.isStringLiteralLike(n) ? n.text : null);
  const visit = (node: ts.Node): void => {
    let spec: string | null = null;
    if (ts.isImportDeclaration(node) || (ts.isExportDeclaration(node) && node.moduleSpecifier)) spec = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      spec = literal(node.moduleReference.expression);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    )
      spec = literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = literal(node.argument.literal);
    if (spec) found.push(spec);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !isTest(f) && !f.split("/").includes("node_modules"))
    .map((f) => join(dir, f));
}

/** Walks from every non-test file under `sharedDir`; lists each import that leaves it. */
export function planeImports(sharedDir: string, root: string): { files: string[]; escapes: string[] } {
  const seen = new Set<string>();
  const escapes: string[] = [];
  const pending = sourcesUnder(sharedDir);
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiersOf(file)) {
      if (!spec.startsWith(".") && !spec.startsWith("/")) continue; // a package, not a plane
      const target = resolve(dirname(file), spec);
      if (relative(sharedDir, target).startsWith("..")) escapes.push(`${relative(root, file)} -> ${relative(root, target)}`);
      else if (existsSync(target)) pending.push(target);
    }
  }
  return { files: [...seen].map((f) => relative(root, f)).sort(), escapes };
}

describe("shared/ imports no plane", () => {
  const { files, escapes } = planeImports(join(ROOT, "shared"), ROOT);

  it("reaches nothing in box/ or portal/ from any non-test file", () => {
    expect(escapes).toEqual([]);
  });

  it("walked the whole of shared/: the client library, the wire and the tables", () => {
    expect(files.length).toBeGreaterThan(40);
    for (const f of [
      "shared/client/index.ts",
      "shared/client/types.ts",
      "shared/wire/settings.ts",
      "shared/wire/gpu.ts",
      "shared/errors/api-error.ts",
    ])
      expect(files).toContain(f);
    expect(files.filter(isTest)).toEqual([]);
  });
});

describe("the check itself, on fixtures", () => {
  const dir = mkdtempSync(join(tmpdir(), "shared-imports-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  };

  it("passes imports that stay inside, and packages, whatever comments say", () => {
    write(
      "clean/shared/a.ts",
      'import { b } from "./wire/b.ts";\nimport { Type } from "@sinclair/typebox";\n// import { x } from "../box/x.ts";\nexport const a = [b, Type, "../portal/p.ts"];\n',
    );
    write("clean/shared/wire/b.ts", "export const b = 1;\n");
    write("clean/shared/a.test.ts", 'import { spawnBox } from "../box/testing/spawn-box.ts";\nvoid spawnBox;\n');
    expect(planeImports(join(dir, "clean/shared"), dir)).toEqual({ files: ["clean/shared/a.ts", "clean/shared/wire/b.ts"], escapes: [] });
  });

  it("fails on each way a plane gets in, type-only included", () => {
    write(
      "bad/shared/a.ts",
      'import type { R } from "../box/readiness/routes.ts";\nexport * from "./deep/b.ts";\nexport type X = import("../portal/gpu/schema.ts").G | R;\n',
    );
    write(
      "bad/shared/deep/b.ts",
      'export { c } from "../../portal/c.ts";\nconst d = await import("../../box/d.ts");\nimport "../../scripts/e.ts";\nexport { d };\n',
    );
    expect(planeImports(join(dir, "bad/shared"), dir).escapes.sort()).toEqual(
      [
        "bad/shared/a.ts -> bad/box/readiness/routes.ts",
        "bad/shared/a.ts -> bad/portal/gpu/schema.ts",
        "bad/shared/deep/b.ts -> bad/portal/c.ts",
        "bad/shared/deep/b.ts -> bad/box/d.ts",
        "bad/shared/deep/b.ts -> bad/scripts/e.ts",
      ].sort(),
    );
  });
});
