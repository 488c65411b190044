// Implements: "arguments validated against the definition's schema (declared properties only)
// before any tool_call frame". The schema uses the six keywords a custom tool may use.
import type { ParameterSchema } from "../../shared/wire/settings.ts";
import { RESPONSE_TO_USER } from "../../shared/wire/settings.ts";

export type ArgsCheck = { ok: true; args: Record<string, unknown>; holdingLine: string | null } | { ok: false; why: string };

function check(schema: ParameterSchema, value: unknown, path: string): { value: unknown } | { why: string } {
  const s = schema as {
    type: string;
    properties?: Record<string, ParameterSchema>;
    required?: string[];
    enum?: unknown[];
    items?: ParameterSchema;
  };
  const fail = (why: string) => ({ why: `${path || "arguments"} ${why}` });
  switch (s.type) {
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("must be an object");
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(s.properties ?? {})) {
        if (!Object.hasOwn(value, k)) continue;
        const r = check(sub, (value as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
        if ("why" in r) return r;
        out[k] = r.value;
      }
      const missing = (s.required ?? []).find((k) => !Object.hasOwn(out, k));
      if (missing) return fail(`is missing the required ${missing}`);
      return { value: out }; // undeclared properties are dropped
    }
    case "array": {
      if (!Array.isArray(value)) return fail("must be a list");
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const r = s.items ? check(s.items, value[i], `${path}[${i}]`) : { value: value[i] };
        if ("why" in r) return r;
        out.push(r.value);
      }
      return { value: out };
    }
    case "string":
      if (typeof value !== "string") return fail("must be a string");
      break;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) return fail("must be an integer");
      break;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("must be a number");
      break;
    case "boolean":
      if (typeof value !== "boolean") return fail("must be true or false");
      break;
    case "null":
      if (value !== null) return fail("must be null");
      break;
    default:
      return fail(`has an unsupported type ${s.type}`);
  }
  if (s.enum && !s.enum.some((e) => e === value)) return fail("is not one of the allowed values");
  return { value };
}

/** Validates the model's arguments; takes out the platform's `response_to_user` holding line. */
export function checkToolArgs(schema: ParameterSchema, raw: unknown): ArgsCheck {
  let holdingLine: string | null = null;
  let value = raw;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && RESPONSE_TO_USER in raw) {
    const { [RESPONSE_TO_USER]: line, ...rest } = raw as Record<string, unknown>;
    if (typeof line === "string" && line.trim()) holdingLine = line.trim().slice(0, 200);
    value = rest;
  }
  const r = check(schema, value ?? {}, "");
  if ("why" in r) return { ok: false, why: r.why };
  return { ok: true, args: r.value as Record<string, unknown>, holdingLine };
}

/** The schema offered to the model: the definition plus the platform's holding line. */
export function offeredParameters(schema: ParameterSchema): ParameterSchema {
  const s = schema as { properties?: Record<string, unknown> };
  return {
    ...schema,
    properties: {
      ...(s.properties ?? {}),
      [RESPONSE_TO_USER]: { type: "string", description: "A short line to say to the person while this runs." },
    },
  } as ParameterSchema;
}
