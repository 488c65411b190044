import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenMeteo } from "./testing/fake-open-meteo.ts";
import { ToolArgsError, ToolError } from "./types.ts";
import { createWeather, WEATHER_CODES } from "./weather.ts";

const ctx = () => ({ timeZone: "UTC", signal: new AbortController().signal });
let meteo: FakeOpenMeteo;
const tool = (timeoutMs?: number) => createWeather({ forecastBaseUrl: meteo.url, geocodeBaseUrl: `${meteo.url}/`, timeoutMs });

beforeAll(async () => {
  meteo = await FakeOpenMeteo.start({
    places: [
      {
        name: "Paris",
        latitude: 48.85341,
        longitude: 2.3488,
        country: "France",
        country_code: "FR",
        admin1: "Île-de-France",
        timezone: "Europe/Paris",
      },
      {
        name: "Paris",
        latitude: 33.66094,
        longitude: -95.55551,
        country: "United States",
        country_code: "US",
        admin1: "Texas",
        timezone: "America/Chicago",
      },
      {
        name: "Melbourne",
        latitude: -37.814,
        longitude: 144.96332,
        country: "Australia",
        country_code: "AU",
        admin1: "Victoria",
        timezone: "Australia/Melbourne",
      },
    ],
    current: {
      "48.85341,2.3488": { temperature_2m: 11.2, weather_code: 61, wind_speed_10m: 14.4, time: "2025-03-07T09:15" },
      "33.66094,-95.55551": { temperature_2m: 25, weather_code: 0, wind_speed_10m: 8, time: "2025-03-07T02:15" },
      "-37.814,144.96332": { temperature_2m: 20.5, weather_code: 2, wind_speed_10m: 20, time: "2025-03-07T19:15" },
    },
  });
});
afterAll(() => meteo.close());

describe("weather", () => {
  it("geocodes the place then reads current conditions, in words", async () => {
    const text = await tool().run({ place: "Melbourne" }, ctx());
    expect(text).toBe(
      "Current weather in Melbourne, Victoria, Australia (as of 2025-03-07T19:15 local time): partly cloudy, 20.5 °C, wind 20 km/h.",
    );
    const [geo, forecast] = meteo.server.requests.slice(-2).map((r) => new URL(r.url, "http://x"));
    expect(geo.pathname).toBe("/v1/search");
    expect(geo.searchParams.get("name")).toBe("Melbourne");
    expect(geo.searchParams.get("count")).toBe("1");
    expect(forecast.pathname).toBe("/v1/forecast");
    expect(forecast.searchParams.get("latitude")).toBe("-37.814");
    expect(forecast.searchParams.get("current")).toBe("temperature_2m,weather_code,wind_speed_10m");
  });

  it("uses a region or country after a comma to pick among places of the same name", async () => {
    expect(await tool().run({ place: "Paris, Texas" }, ctx())).toContain("Paris, Texas, United States");
    expect(await tool().run({ place: "Paris, France" }, ctx())).toContain(
      "Paris, Île-de-France, France (as of 2025-03-07T09:15 local time): slight rain, 11.2 °C",
    );
  });

  it("asks for imperial units when requested", async () => {
    const text = await tool().run({ place: "Paris, US", units: "Imperial" }, ctx());
    expect(text).toContain("clear sky, 77 °F, wind 5 mp/h");
  });

  it("says clearly when the place is not found", async () => {
    expect(await tool().run({ place: "Atlantis" }, ctx())).toBe('No place called "Atlantis" was found, so there is no weather to report.');
  });

  it("turns API failures and timeouts into readable tool errors", async () => {
    meteo.faults.push({ status: 500 });
    await expect(tool().run({ place: "Melbourne" }, ctx())).rejects.toThrow(/could not look up the place \(HTTP 500/);
    meteo.faults.push(null, { status: 400, reason: "Latitude must be in range of -90 to 90°. Given: 100.0." });
    const err = await tool()
      .run({ place: "Melbourne" }, ctx())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toBe(
      "The weather service could not give a forecast (HTTP 400: Latitude must be in range of -90 to 90°. Given: 100.0.).",
    );
    meteo.faults.push({ delayMs: 1000 });
    await expect(tool(200).run({ place: "Melbourne" }, ctx())).rejects.toThrow(/did not answer in time/);
  });

  it("reports an unreachable service without a raw exception", async () => {
    const dead = createWeather({ geocodeBaseUrl: "http://127.0.0.1:1", forecastBaseUrl: "http://127.0.0.1:1" });
    await expect(dead.run({ place: "Melbourne" }, ctx())).rejects.toThrow(/The weather service could not be reached/);
  });

  it.each([[{}], [{ place: 5 }], [{ place: "  " }], [{ place: "Paris", units: "kelvin" }], [null], ["Paris"]])(
    "refuses bad arguments %j",
    async (args) => {
      await expect(tool().run(args, ctx())).rejects.toBeInstanceOf(ToolArgsError);
    },
  );

  it("maps every WMO code Open-Meteo documents", () => {
    for (const code of [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99]) {
      expect(WEATHER_CODES[code]).toBeTruthy();
    }
  });
});
