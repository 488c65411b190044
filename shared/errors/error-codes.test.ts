// Errors: Error codes: every code the box and the portal raise is in the one list
// (shared/wire/error-codes.ts) that the client library's error type exposes. Codes are read with
// the TypeScript parser from every `new ApiError(status, code, ...)`: a literal, a file constant,
// or a parameter of a local helper (`refuse(code, ...)`), followed to the helper's callers and its
// default. A code passed on from another error (`err.code`) was raised, and checked, where it began.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AvatarApiError } from "../client/errors.ts";
import { ERROR_CODES, type ErrorCode } from "../wire/error-codes.ts";

const ROOT = resolve(import.meta.dirname, "../..");

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "testing") out.push(...sourcesUnder(p));
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The codes one source raises through ApiError. */
export function codesRaisedIn(text: string, file = "x.ts"): string[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.ES2022,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const codes: string[] = [];
  const constants = new Map<string, string>();
  const helperParams: { helper: string; index: number }[] = [];
  const calls: ts.CallExpression[] = [];
  const news: ts.NewExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteralLike(node.initializer))
      constants.set(node.name.text, node.initializer.text);
    if (ts.isCallExpression(node)) calls.push(node);
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "ApiError") news.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const n of news) {
    const arg = n.arguments?.[1];
    if (!arg) continue;
    if (ts.isStringLiteralLike(arg)) codes.push(arg.text);
    else if (ts.isIdentifier(arg)) {
      const param = parameterNamed(n, arg.text);
      if (param) {
        if (param.initializer && ts.isStringLiteralLike(param.initializer)) codes.push(param.initializer.text);
        const helper = helperName(param.parent);
        if (helper) helperParams.push({ helper, index: param.parent.parameters.indexOf(param) });
      } else if (constants.has(arg.text)) codes.push(constants.get(arg.text)!);
      else codes.push(`<unresolved ${arg.text}>`);
    } else if (!ts.isPropertyAccessExpression(arg)) codes.push(`<unresolved ${arg.getText(source)}>`);
  }
  for (const { helper, index } of helperParams)
    for (const c of calls) {
      const callee = c.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
      const arg = c.arguments[index];
      if (name === helper && arg && ts.isStringLiteralLike(arg)) codes.push(arg.text);
    }
  return codes;
}

/** The parameter of an enclosing function that `name` refers to, if any. */
function parameterNamed(from: ts.Node, name: string): ts.ParameterDeclaration | null {
  for (let n: ts.Node | undefined = from.parent; n; n = n.parent)
    if (ts.isFunctionLike(n)) {
      const p = n.parameters.find((q) => ts.isIdentifier(q.name) && q.name.text === name);
      if (p) return p;
    }
  return null;
}

/** What callers call the function a parameter belongs to: `function f`, `const f = (...) =>`, a method `f(...)`. */
function helperName(fn: ts.SignatureDeclaration): string | null {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  const holder = fn.parent;
  if (holder && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  return null;
}

describe("error codes", () => {
  const listed = new Set<string>(ERROR_CODES);

  it("lists every code the box and the portal raise", () => {
    const unlisted: string[] = [];
    const raised = new Set<string>();
    for (const plane of ["box", "portal", "shared"])
      for (const file of sourcesUnder(join(ROOT, plane)))
        for (const code of codesRaisedIn(readFileSync(file, "utf8"), file)) {
          raised.add(code);
          if (!listed.has(code)) unlisted.push(`${relative(ROOT, file)}: ${code}`);
        }
    expect(unlisted).toEqual([]);
    expect(raised.size, "the walk found the raising sites").toBeGreaterThan(80);
  });

  it("lists each code once, every one in the contract's form", () => {
    expect(ERROR_CODES.length).toBe(listed.size);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it("finds a code wherever a route can raise it, and reports one it cannot follow", () => {
    const text = `
      const GONE = "gone_constant";
      const refuse = (code: string, m: string) => new ApiError(400, code, m);
      function read(c: unknown, code = "default_code") { throw new ApiError(400, code, "x"); }
      throw new ApiError(404, "literal_code", "x");
      throw new ApiError(503, GONE, "x");
      throw refuse("helper_code", "x");
      read(null, "caller_code");
      throw new ApiError(404, err.code, "x");
      throw new ApiError(400, pick(), "x");
    `;
    expect(codesRaisedIn(text).sort()).toEqual(
      ["<unresolved pick()>", "caller_code", "default_code", "gone_constant", "helper_code", "literal_code"].sort(),
    );
  });

  it("is the type of the client library's error code (checked by the typecheck)", () => {
    expectTypeOf<AvatarApiError["code"]>().toEqualTypeOf<ErrorCode | (string & {})>();
  });
});
