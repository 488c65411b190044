// Implements: the value rules shared by the settings validators (Box: settings, Errors:
// `invalid_body` / `setting_refused`, service-spec.md): depth, plain objects, text and numbers.
import { ApiError } from "../../shared/errors/api-error.ts";

export const invalidBody = (message: string) => new ApiError(400, "invalid_body", message);
export const refused = (message: string) => new ApiError(400, "setting_refused", message);

/** Keys that must never reach an object as names: they would reach for the prototype chain. */
export const DANGEROUS_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * True when `value` nests containers (objects and arrays) deeper than `max`; a scalar has depth
 * 0, `{}` and `[]` depth 1. Iterative, and each object is revisited only at a greater depth, so
 * neither deep nor shared or cyclic values can blow the stack or loop forever.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: Array<[object, number]> = [];
  const seenAt = new Map<object, number>();
  if (typeof value === "object" && value !== null) stack.push([value, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    const before = seenAt.get(node);
    if (before !== undefined && before >= depth) continue;
    seenAt.set(node, depth);
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A JSON object: not null, not an array, not a class instance. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Characters as a person counts them: Unicode code points, not UTF-16 units. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// In `u` mode a well-formed surrogate pair is one code point, so this matches only lone halves.
const LONE_SURROGATE = /\p{Cs}/u;
// Multi-line text keeps tab, line feed and carriage return; every other control is refused.
const TEXT_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Single-line values refuse every C0/C1 control and the Unicode line/paragraph separators.
const LINE_CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** Why a string is not acceptable text, or null. */
export function textProblem(s: string, opts: { max: number; multiline: boolean }): string | null {
  if (LONE_SURROGATE.test(s)) return "contains a broken Unicode character (a lone surrogate)";
  if ((opts.multiline ? TEXT_CONTROLS : LINE_CONTROLS).test(s)) {
    return opts.multiline ? "contains a control character" : "contains a control character or a line break";
  }
  if (charCount(s) > opts.max) return `is longer than ${opts.max} characters`;
  return null;
}

/** A short quoted rendering of a caller's value for a message (never the whole value). */
export function quote(v: unknown): string {
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  const cut = [...s].slice(0, 60).join("");
  return JSON.stringify(cut.length < s.length ? `${cut}…` : cut);
}

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "number") return Number.isFinite(v) ? "a number" : "a non-finite number";
  return `a ${typeof v}`;
}

/** A single-line or multi-line string field; `invalid_body` on a wrong type or bad text. */
export function readString(field: string, v: unknown, opts: { max: number; multiline?: boolean }): string {
  if (typeof v !== "string") throw invalidBody(`${field} must be a string, not ${typeName(v)}.`);
  const problem = textProblem(v, { max: opts.max, multiline: opts.multiline ?? false });
  if (problem) throw invalidBody(`${field} ${problem}.`);
  return v;
}

export function readNullableString(field: string, v: unknown, max: number): string | null {
  if (v === null) return null;
  if (typeof v !== "string") throw invalidBody(`${field} must be a string or null, not ${typeName(v)}.`);
  return readString(field, v, { max });
}

export function readInteger(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidBody(`${field} must be a whole number, not ${typeName(v)}.`);
  if (!Number.isInteger(v)) throw invalidBody(`${field} must be a whole number; ${v} has a fraction.`);
  if (v < min || v > max) throw invalidBody(`${field} must be between ${min} and ${max}; ${v} is out of range.`);
  return v;
}

export function readNullableNumber(field: string, v: unknown, min: number, max: number): number | null {
  if (v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw invalidBody(`${field} must be a number or null, not ${typeName(v)}.`);
  }
  if (v < min || v > max) throw invalidBody(`${field} must be between ${min} and ${max}; ${v} is out of range.`);
  return v === 0 ? 0 : v; // -0 is stored as 0
}

export function readBoolean(field: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw invalidBody(`${field} must be true or false, not ${typeName(v)}.`);
  return v;
}
