// Implements: the Cartesia rows of "Voice catalogue (`GET /api/voices`)" from `GET /voices`
// (docs/providers.md 2.6: cursor pages `{data, has_more}`, next page `starting_after=<last id>`)
// and the key check `GET /voices?limit=1` (2.7). Every voice speaks every language of the model (2.9).
import type { VoiceRow } from "../engine.ts";
import { garbage, type CartesiaAsk } from "./cartesia-errors.ts";
import { openRequest, readText, type CartesiaConnection } from "./cartesia-http.ts";
import { languageTag, modelLanguages } from "./cartesia-wire.ts";

export const CARTESIA_PROVIDER = "cartesia";
const PAGE = 100;

/** A Cartesia voice as the catalogue shows it (no preview URL, dates or model ids). */
export interface CartesiaVoiceRow extends VoiceRow {
  provider: typeof CARTESIA_PROVIDER;
  languages: string[];
  /** The account's own voice (cloned or localized), as opposed to Cartesia's library. */
  is_owner: boolean;
  is_public: boolean;
}

/** Maps one voice object; null when it lacks an id or a name. */
export function voiceRow(raw: unknown, model: string): CartesiaVoiceRow | null {
  if (!raw || typeof raw !== "object") return null;
  const v = raw as Record<string, unknown>;
  if (typeof v.id !== "string" || v.id === "" || typeof v.name !== "string") return null;
  const language = languageTag(v.language);
  const spoken = modelLanguages(model);
  const languages = language ? [language, ...spoken.filter((l) => l !== language)] : spoken;
  return {
    provider: CARTESIA_PROVIDER,
    id: v.id,
    name: v.name,
    language,
    gender: typeof v.gender === "string" ? v.gender.toLowerCase() : "",
    description: typeof v.description === "string" ? v.description : "",
    languages,
    is_owner: v.is_owner === true,
    is_public: v.is_public === true,
  };
}

interface Page {
  data: unknown[];
  hasMore: boolean;
}

async function fetchPage(conn: CartesiaConnection, ask: CartesiaAsk, query: URLSearchParams): Promise<Page> {
  const req = await openRequest(conn, ask, `/voices?${query}`, { method: "GET", accept: "application/json" });
  const text = await readText(req, ask);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw garbage(ask, "it is not JSON");
  }
  // Version 2024-06-10 answered a bare array; current versions a cursor page.
  if (Array.isArray(json)) return { data: json, hasMore: false };
  const page = json as { data?: unknown; has_more?: unknown } | null;
  if (!page || !Array.isArray(page.data)) throw garbage(ask, "it has no list of voices");
  return { data: page.data, hasMore: page.has_more === true };
}

/** Every voice the key can use, `maxVoices` at most (pages of 100). */
export async function listVoices(conn: CartesiaConnection, model: string, maxVoices: number): Promise<CartesiaVoiceRow[]> {
  const ask: CartesiaAsk = { kind: "voices" };
  const rows: CartesiaVoiceRow[] = [];
  const seen = new Set<string>();
  let after: string | undefined;
  while (rows.length < maxVoices) {
    const query = new URLSearchParams({ limit: String(Math.min(PAGE, maxVoices - rows.length)) });
    if (after) query.set("starting_after", after);
    const page = await fetchPage(conn, ask, query);
    let last: string | undefined;
    for (const raw of page.data) {
      const row = voiceRow(raw, model);
      if (!row) continue;
      last = row.id;
      if (seen.has(row.id) || rows.length >= maxVoices) continue;
      seen.add(row.id);
      rows.push(row);
    }
    // A cursor that does not move would loop for ever.
    if (!page.hasMore || !last || last === after) break;
    after = last;
  }
  return rows;
}

/** Resolves when the key is accepted; a refused key is VoiceProviderError `key_problem`. */
export async function checkKey(conn: CartesiaConnection): Promise<void> {
  const ask: CartesiaAsk = { kind: "key" };
  const req = await openRequest(conn, ask, "/voices?limit=1", { method: "GET", accept: "application/json" });
  await readText(req, ask);
}
