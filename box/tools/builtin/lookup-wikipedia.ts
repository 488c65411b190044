// Implements: Built-in tools — `lookup_wikipedia` (topic summary): REST page summary, with an
// opensearch fallback when the topic is not an exact article title.
import { BUILTIN_LABELS } from "./labels.ts";
import { argsObject, requiredString } from "./args.ts";
import { baseUrl, getJson, type JsonGetOptions } from "./http-json.ts";
import { ToolError, type BuiltinTool } from "./types.ts";

export interface WikipediaOptions {
  /** Default https://en.wikipedia.org */
  baseUrl?: string;
  /** Per request. Default 6000. */
  timeoutMs?: number;
  /** Wikimedia asks API clients for a descriptive User-Agent. */
  userAgent?: string;
  /** Characters of extract handed to the model. Default 3000. */
  maxChars?: number;
  fetch?: typeof fetch;
}

export const WIKIPEDIA_DEFAULTS = {
  baseUrl: "https://en.wikipedia.org",
  timeoutMs: 6000,
  userAgent: "avatar-box/0.1 (built-in lookup_wikipedia tool)",
  maxChars: 3000,
} as const;

interface Summary {
  type?: string;
  title?: string;
  description?: string;
  extract?: string;
  content_urls?: { desktop?: { page?: string } };
}

type Lookup = { found: true; summary: Summary } | { found: false };

export function createLookupWikipedia(options: WikipediaOptions = {}): BuiltinTool {
  const base = baseUrl(options.baseUrl ?? WIKIPEDIA_DEFAULTS.baseUrl);
  const maxChars = options.maxChars ?? WIKIPEDIA_DEFAULTS.maxChars;
  const http = (signal: AbortSignal): JsonGetOptions => ({
    service: "Wikipedia",
    timeoutMs: options.timeoutMs ?? WIKIPEDIA_DEFAULTS.timeoutMs,
    userAgent: options.userAgent ?? WIKIPEDIA_DEFAULTS.userAgent,
    fetch: options.fetch,
    signal,
  });

  async function summary(title: string, signal: AbortSignal): Promise<Lookup> {
    const path = encodeURIComponent(title.replace(/ /g, "_"));
    const answer = await getJson(`${base}/api/rest_v1/page/summary/${path}?redirect=true`, http(signal));
    if (answer.status === 404) return { found: false };
    if (answer.status !== 200) throw new ToolError(`Wikipedia answered with HTTP status ${answer.status}.`);
    const body = answer.body as Summary | undefined;
    if (!body || typeof body !== "object" || typeof body.title !== "string")
      throw new ToolError("Wikipedia sent a summary that could not be read.");
    return { found: true, summary: body };
  }

  /** Opensearch answers [query, titles[], descriptions[], urls[]]; the first title is the best match. */
  async function search(topic: string, signal: AbortSignal): Promise<string | undefined> {
    const query = new URLSearchParams({ action: "opensearch", search: topic, limit: "1", namespace: "0", format: "json" });
    const answer = await getJson(`${base}/w/api.php?${query}`, http(signal));
    if (answer.status !== 200) throw new ToolError(`Wikipedia search answered with HTTP status ${answer.status}.`);
    const titles = Array.isArray(answer.body) ? answer.body[1] : undefined;
    return Array.isArray(titles) && typeof titles[0] === "string" && titles[0] ? titles[0] : undefined;
  }

  function describe(s: Summary): string {
    const heading = s.description ? `${s.title} (${s.description})` : s.title!;
    let extract = (s.extract ?? "").trim();
    if (extract.length > maxChars) extract = `${extract.slice(0, maxChars)} …`;
    const lines = [s.type === "disambiguation" ? `${heading} is a disambiguation page (the name has several meanings).` : heading];
    lines.push(extract || "The article has no summary.");
    const page = s.content_urls?.desktop?.page;
    if (page) lines.push(`Source: ${page}`);
    return lines.join("\n");
  }

  return {
    name: "lookup_wikipedia",
    label: BUILTIN_LABELS.lookup_wikipedia,
    description: "Get the summary of the Wikipedia article about a topic (a person, place, thing or event).",
    parameters: {
      type: "object",
      properties: { topic: { type: "string", description: 'The article title or topic, e.g. "Sydney Opera House".' } },
      required: ["topic"],
    },
    async run(args, ctx) {
      const topic = requiredString(argsObject(args, "lookup_wikipedia"), "topic", 200);
      const direct = await summary(topic, ctx.signal);
      if (direct.found) return describe(direct.summary);
      const title = await search(topic, ctx.signal);
      if (title && title !== topic) {
        const second = await summary(title, ctx.signal);
        if (second.found) return describe(second.summary);
      }
      return `No Wikipedia article was found for "${topic}".`;
    },
  };
}
