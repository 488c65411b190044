// Implements: `client_context` of POST /connect — four per-session facts, each validated on its
// own and dropped when invalid; kept on the live session only, never persisted.
// Field names (our choice, see docs/api-notes.md): timezone, name, location, locale.
import type { ClientContext } from "../../shared/wire/client-context.ts";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function cleanText(v: unknown, max: number): string | undefined {
  if (typeof v !== "string") return undefined;
  const s = v.normalize("NFC").trim().replace(/\s+/g, " ");
  if (!s || s.length > max || CONTROL.test(s) || /[<>{}[\]]/.test(s)) return undefined;
  return s;
}

function timeZone(v: unknown): string | undefined {
  if (typeof v !== "string" || v.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(v)) return undefined;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function locale(v: unknown): string | undefined {
  if (typeof v !== "string" || v.length > 35) return undefined;
  try {
    return Intl.getCanonicalLocales(v)[0];
  } catch {
    return undefined;
  }
}

export function sanitizeClientContext(raw: unknown): ClientContext {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const r = raw as Record<string, unknown>;
  const out: ClientContext = {};
  const tz = timeZone(r.timezone);
  if (tz) out.timezone = tz;
  const name = cleanText(r.name, 64);
  if (name) out.name = name;
  const where = cleanText(r.location, 120);
  if (where) out.location = where;
  const loc = locale(r.locale);
  if (loc) out.locale = loc;
  return out;
}
