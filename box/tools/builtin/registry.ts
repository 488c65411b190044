// Implements: Built-in tools (run on the server, only where switched on) — the five are a deployment
// setting, not per caller: this builds the switched-on set once at start-up.
import { createCalculate } from "./calculate.ts";
import { createCurrentTime } from "./current-time.ts";
import { createFetchUrl, type FetchUrlOptions } from "./fetch-url.ts";
import { BUILTIN_LABELS, BUILTIN_NAMES, isBuiltinName, type BuiltinName } from "./labels.ts";
import { createLookupWikipedia } from "./lookup-wikipedia.ts";
import type { Resolver } from "./ssrf-guard.ts";
import type { BuiltinTool } from "./types.ts";
import { createWeather } from "./weather.ts";

export { BUILTIN_LABELS, BUILTIN_NAMES, type BuiltinName };

export interface BuiltinToolsOptions {
  /** Deployment setting: which of the five are on. Unknown names are a configuration error. */
  enabled: readonly string[];
  /** IANA zone of the deployment, used by current_time when the caller's zone is missing or invalid. Default: the host's zone. */
  deploymentTimeZone?: string;
  /** Clock for current_time (tests). */
  now?: () => Date;
  weatherBaseUrl?: string;
  geocodeBaseUrl?: string;
  wikipediaBaseUrl?: string;
  /** Per-request deadline for the weather and Wikipedia APIs. Default 6000 ms. */
  apiTimeoutMs?: number;
  /** User-Agent for the weather and Wikipedia APIs. */
  userAgent?: string;
  /** fetch_url limits (timeoutMs, maxBytes, maxRedirects, maxChars, userAgent, testOnlyAllowedAddresses). */
  fetch?: Omit<FetchUrlOptions, "resolver">;
  /** Name resolver for fetch_url. Default: the system resolver. */
  resolver?: Resolver;
}

export function createBuiltinTools(options: BuiltinToolsOptions): Map<string, BuiltinTool> {
  const unknown = options.enabled.filter((n) => !isBuiltinName(n));
  if (unknown.length > 0) {
    throw new Error(`Unknown built-in tool(s): ${unknown.join(", ")} (known: ${BUILTIN_NAMES.join(", ")})`);
  }
  const on = new Set(options.enabled as readonly BuiltinName[]);
  const api = { timeoutMs: options.apiTimeoutMs, userAgent: options.userAgent };
  const factories: Record<BuiltinName, () => BuiltinTool> = {
    calculate: () => createCalculate(),
    current_time: () =>
      createCurrentTime({
        deploymentTimeZone: options.deploymentTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        now: options.now,
      }),
    fetch_url: () => createFetchUrl({ ...options.fetch, resolver: options.resolver }),
    weather: () => createWeather({ ...api, forecastBaseUrl: options.weatherBaseUrl, geocodeBaseUrl: options.geocodeBaseUrl }),
    lookup_wikipedia: () => createLookupWikipedia({ ...api, baseUrl: options.wikipediaBaseUrl }),
  };
  const tools = new Map<string, BuiltinTool>();
  for (const name of BUILTIN_NAMES) if (on.has(name)) tools.set(name, factories[name]());
  return tools;
}

/** The shape a model provider wants in its tool list (`box/llm` ToolSpec). */
export function toToolSpec(tool: BuiltinTool): { name: string; description: string; parameters: Record<string, unknown> } {
  return { name: tool.name, description: tool.description, parameters: tool.parameters as unknown as Record<string, unknown> };
}
