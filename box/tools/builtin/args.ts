// Argument checks shared by the built-ins: a model may send anything (a string, null, wrong types),
// and every mismatch must end as a ToolArgsError with a sentence the model can act on.
import { ToolArgsError } from "./types.ts";

/** Accepts an object, or a JSON string holding one (some models send arguments as text). */
export function argsObject(args: unknown, tool: string): Record<string, unknown> {
  let value = args;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new ToolArgsError(`${tool} expects a JSON object of arguments, not plain text.`);
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ToolArgsError(`${tool} expects an object of arguments.`);
  }
  return value as Record<string, unknown>;
}

/** A required string, trimmed, non-empty and at most `max` characters. */
export function requiredString(obj: Record<string, unknown>, key: string, max: number): string {
  const value = obj[key];
  if (value === undefined || value === null) throw new ToolArgsError(`Missing required argument "${key}".`);
  if (typeof value !== "string") throw new ToolArgsError(`Argument "${key}" must be a string.`);
  const text = value.trim();
  if (!text) throw new ToolArgsError(`Argument "${key}" must not be empty.`);
  if (text.length > max) throw new ToolArgsError(`Argument "${key}" is too long (at most ${max} characters).`);
  return text;
}

/** An optional string; absent, null and blank all mean "not given". */
export function optionalString(obj: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null || (typeof value === "string" && !value.trim())) return undefined;
  return requiredString(obj, key, max);
}

/** An optional value from a closed list (compared case-insensitively). */
export function optionalEnum<T extends string>(obj: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(obj, key, 64);
  if (value === undefined) return undefined;
  const hit = allowed.find((a) => a === value.toLowerCase());
  if (!hit) throw new ToolArgsError(`Argument "${key}" must be one of: ${allowed.join(", ")}.`);
  return hit;
}
