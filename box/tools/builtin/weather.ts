// Implements: Built-in tools — `weather` (named place): Open-Meteo geocoding, then its current forecast.
import { BUILTIN_LABELS } from "./labels.ts";
import { argsObject, optionalEnum, requiredString } from "./args.ts";
import { baseUrl, getJson } from "./http-json.ts";
import { ToolError, type BuiltinTool } from "./types.ts";

export interface WeatherOptions {
  /** Default https://api.open-meteo.com */
  forecastBaseUrl?: string;
  /** Default https://geocoding-api.open-meteo.com */
  geocodeBaseUrl?: string;
  /** Per request. Default 6000. */
  timeoutMs?: number;
  userAgent?: string;
  fetch?: typeof fetch;
}

export const WEATHER_DEFAULTS = {
  forecastBaseUrl: "https://api.open-meteo.com",
  geocodeBaseUrl: "https://geocoding-api.open-meteo.com",
  timeoutMs: 6000,
  userAgent: "avatar-box/0.1 (built-in weather tool)",
} as const;

/** WMO weather interpretation codes as Open-Meteo documents them. */
export const WEATHER_CODES: Record<number, string> = {
  0: "clear sky",
  1: "mainly clear",
  2: "partly cloudy",
  3: "overcast",
  45: "fog",
  48: "freezing fog (depositing rime)",
  51: "light drizzle",
  53: "moderate drizzle",
  55: "dense drizzle",
  56: "light freezing drizzle",
  57: "dense freezing drizzle",
  61: "slight rain",
  63: "moderate rain",
  65: "heavy rain",
  66: "light freezing rain",
  67: "heavy freezing rain",
  71: "slight snowfall",
  73: "moderate snowfall",
  75: "heavy snowfall",
  77: "snow grains",
  80: "slight rain showers",
  81: "moderate rain showers",
  82: "violent rain showers",
  85: "slight snow showers",
  86: "heavy snow showers",
  95: "thunderstorm",
  96: "thunderstorm with slight hail",
  99: "thunderstorm with heavy hail",
};

interface Place {
  name: string;
  latitude: number;
  longitude: number;
  admin1?: string;
  country?: string;
  country_code?: string;
}

const isPlace = (p: any): p is Place => p && typeof p.name === "string" && Number.isFinite(p.latitude) && Number.isFinite(p.longitude);

/** "Paris, Texas": search the name, prefer the result whose region or country matches the rest. */
function choosePlace(results: Place[], qualifiers: string[]): Place | undefined {
  const matches = (p: Place) =>
    qualifiers.every((q) => [p.admin1, p.country, p.country_code].some((v) => typeof v === "string" && v.toLowerCase().startsWith(q)));
  return results.find(matches) ?? results[0];
}

const placeName = (p: Place) => [p.name, p.admin1, p.country].filter((v, i, all) => v && all.indexOf(v) === i).join(", ");

function apiReason(body: unknown): string {
  const reason = (body as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? `: ${reason.slice(0, 120)}` : "";
}

export function createWeather(options: WeatherOptions = {}): BuiltinTool {
  const forecastBase = baseUrl(options.forecastBaseUrl ?? WEATHER_DEFAULTS.forecastBaseUrl);
  const geocodeBase = baseUrl(options.geocodeBaseUrl ?? WEATHER_DEFAULTS.geocodeBaseUrl);
  const http = (signal: AbortSignal) => ({
    service: "The weather service",
    timeoutMs: options.timeoutMs ?? WEATHER_DEFAULTS.timeoutMs,
    userAgent: options.userAgent ?? WEATHER_DEFAULTS.userAgent,
    fetch: options.fetch,
    signal,
  });
  return {
    name: "weather",
    label: BUILTIN_LABELS.weather,
    description: 'Current weather (conditions, temperature, wind) for a named place, e.g. "Melbourne" or "Paris, France".',
    parameters: {
      type: "object",
      properties: {
        place: { type: "string", description: "City or place name, optionally followed by a comma and region or country." },
        units: { type: "string", enum: ["metric", "imperial"], description: "metric (°C, km/h, the default) or imperial (°F, mph)." },
      },
      required: ["place"],
    },
    async run(args, ctx) {
      const obj = argsObject(args, "weather");
      const place = requiredString(obj, "place", 120);
      const units = optionalEnum(obj, "units", ["metric", "imperial"] as const) ?? "metric";
      const [name, ...rest] = place
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const qualifiers = rest.map((q) => q.toLowerCase());
      if (!name) return `No place called "${place}" was found.`;

      const geoUrl = `${geocodeBase}/v1/search?name=${encodeURIComponent(name)}&count=${qualifiers.length ? 10 : 1}&language=en&format=json`;
      const geo = await getJson(geoUrl, http(ctx.signal));
      if (geo.status !== 200)
        throw new ToolError(`The weather service could not look up the place (HTTP ${geo.status}${apiReason(geo.body)}).`);
      const results = (geo.body as { results?: unknown } | undefined)?.results;
      const found = choosePlace(Array.isArray(results) ? results.filter(isPlace) : [], qualifiers);
      if (!found) return `No place called "${place}" was found, so there is no weather to report.`;

      const query = new URLSearchParams({
        latitude: String(found.latitude),
        longitude: String(found.longitude),
        current: "temperature_2m,weather_code,wind_speed_10m",
        timezone: "auto",
      });
      if (units === "imperial") {
        query.set("temperature_unit", "fahrenheit");
        query.set("wind_speed_unit", "mph");
      }
      const forecast = await getJson(`${forecastBase}/v1/forecast?${query}`, http(ctx.signal));
      if (forecast.status !== 200)
        throw new ToolError(`The weather service could not give a forecast (HTTP ${forecast.status}${apiReason(forecast.body)}).`);
      const body = forecast.body as { current?: Record<string, unknown>; current_units?: Record<string, unknown> } | undefined;
      const current = body?.current ?? {};
      const unitsOf = body?.current_units ?? {};
      const temperature = current.temperature_2m;
      if (typeof temperature !== "number") throw new ToolError("The weather service sent a forecast without a temperature.");
      const parts = [
        WEATHER_CODES[current.weather_code as number] ??
          (typeof current.weather_code === "number" ? `weather code ${current.weather_code}` : undefined),
        `${temperature} ${unitsOf.temperature_2m ?? (units === "imperial" ? "°F" : "°C")}`,
        typeof current.wind_speed_10m === "number"
          ? `wind ${current.wind_speed_10m} ${unitsOf.wind_speed_10m ?? (units === "imperial" ? "mph" : "km/h")}`
          : undefined,
      ].filter(Boolean);
      const when = typeof current.time === "string" ? ` (as of ${current.time} local time)` : "";
      return `Current weather in ${placeName(found)}${when}: ${parts.join(", ")}.`;
    },
  };
}
