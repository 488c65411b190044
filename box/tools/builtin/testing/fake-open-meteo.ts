// Open-Meteo's geocoding (`/v1/search`) and forecast (`/v1/forecast?current=...`) APIs, answering
// with the real JSON shapes (results omitted when nothing matches; `{error: true, reason}` on 400).
import type { ServerResponse } from "node:http";
import { LocalServer, sendJson } from "./local-server.ts";

export interface FakePlace {
  name: string;
  latitude: number;
  longitude: number;
  country: string;
  country_code: string;
  admin1?: string;
  timezone: string;
}

export interface FakeCurrent {
  /** Celsius. */
  temperature_2m: number;
  weather_code: number;
  /** km/h. */
  wind_speed_10m: number;
  /** Local time, "2025-03-07T14:00". */
  time: string;
}

export interface FakeOpenMeteoOptions {
  places: FakePlace[];
  /** Keyed by `${latitude},${longitude}` as the places list writes them. */
  current: Record<string, FakeCurrent>;
}

export class FakeOpenMeteo {
  /** Queued per request, in order: an HTTP failure, a delay before the normal answer, or null (answer normally). */
  readonly faults: ({ status: number; reason?: string } | { delayMs: number } | null)[] = [];
  readonly server: LocalServer;

  private constructor(private readonly options: FakeOpenMeteoOptions) {
    this.server = new LocalServer(async (req, res, url) => {
      const fault = this.faults.shift();
      if (fault && "delayMs" in fault) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault && "status" in fault) return sendJson(res, fault.status, { error: true, reason: fault.reason ?? "Internal Server Error" });
      if (req.method === "GET" && url.pathname === "/v1/search") return this.search(res, url);
      if (req.method === "GET" && url.pathname === "/v1/forecast") return this.forecast(res, url);
      sendJson(res, 404, { error: true, reason: "Not Found" });
    });
  }

  static async start(options: FakeOpenMeteoOptions): Promise<FakeOpenMeteo> {
    const fake = new FakeOpenMeteo(options);
    await fake.server.listen();
    return fake;
  }

  get url(): string {
    return this.server.url;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private search(res: ServerResponse, url: URL): void {
    const name = url.searchParams.get("name");
    if (name === null) return sendJson(res, 400, { error: true, reason: "Parameter 'name' is required" });
    const count = Math.min(Number(url.searchParams.get("count") ?? 10), 100);
    const wanted = name.trim().toLowerCase();
    const hits = wanted.length < 2 ? [] : this.options.places.filter((p) => p.name.toLowerCase().startsWith(wanted));
    const results = hits.slice(0, count).map((p, i) => ({ id: 1000 + i, ...p, feature_code: "PPLA", population: 100000 }));
    sendJson(res, 200, results.length ? { results, generationtime_ms: 0.4 } : { generationtime_ms: 0.3 });
  }

  private forecast(res: ServerResponse, url: URL): void {
    const lat = Number(url.searchParams.get("latitude"));
    const lon = Number(url.searchParams.get("longitude"));
    if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
      return sendJson(res, 400, { error: true, reason: `Latitude must be in range of -90 to 90°. Given: ${lat}.` });
    }
    const now = this.options.current[`${lat},${lon}`];
    const fields = (url.searchParams.get("current") ?? "").split(",").filter(Boolean);
    const fahrenheit = url.searchParams.get("temperature_unit") === "fahrenheit";
    const mph = url.searchParams.get("wind_speed_unit") === "mph";
    const values: Record<string, number> = now
      ? {
          temperature_2m: fahrenheit ? Math.round(((now.temperature_2m * 9) / 5) * 10 + 320) / 10 : now.temperature_2m,
          weather_code: now.weather_code,
          wind_speed_10m: mph ? Math.round((now.wind_speed_10m / 1.609344) * 10) / 10 : now.wind_speed_10m,
        }
      : { temperature_2m: 0, weather_code: 0, wind_speed_10m: 0 };
    const units: Record<string, string> = {
      temperature_2m: fahrenheit ? "°F" : "°C",
      weather_code: "wmo code",
      wind_speed_10m: mph ? "mp/h" : "km/h",
    };
    const current: Record<string, unknown> = { time: now?.time ?? "2025-01-01T00:00", interval: 900 };
    const currentUnits: Record<string, string> = { time: "iso8601", interval: "seconds" };
    for (const f of fields) {
      if (!(f in values))
        return sendJson(res, 400, {
          error: true,
          reason: `Cannot initialize WeatherVariable from invalid String value ${f} for key current`,
        });
      current[f] = values[f];
      currentUnits[f] = units[f];
    }
    sendJson(res, 200, {
      latitude: lat,
      longitude: lon,
      generationtime_ms: 0.05,
      utc_offset_seconds: 0,
      timezone: "GMT",
      timezone_abbreviation: "GMT",
      elevation: 10,
      current_units: currentUnits,
      current,
    });
  }
}
