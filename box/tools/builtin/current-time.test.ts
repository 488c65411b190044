import { describe, expect, it } from "vitest";
import { canonicalTimeZone, createCurrentTime, describeTime } from "./current-time.ts";
import { ToolArgsError } from "./types.ts";

// 2025-01-15T03:04:05Z: Sydney is on daylight time (+11), New York on standard time (-5).
const instant = new Date("2025-01-15T03:04:05.678Z");
const signal = new AbortController().signal;
const tool = (deploymentTimeZone = "Australia/Sydney") => createCurrentTime({ deploymentTimeZone, now: () => instant });

describe("current_time", () => {
  it("answers in the caller's zone from client_context and names it", async () => {
    const text = await tool().run({}, { timeZone: "America/New_York", signal });
    expect(text).toContain("America/New_York");
    expect(text).toContain("2025-01-14T22:04:05-05:00");
    expect(text).toContain("Tuesday");
    expect(text).toContain("22:04");
  });

  it("uses the deployment zone when the caller gave none, naming it (never silently UTC)", async () => {
    const text = await tool().run({}, { timeZone: "", signal });
    expect(text).toContain("Australia/Sydney");
    expect(text).toContain("2025-01-15T14:04:05+11:00");
    expect(text).not.toMatch(/\bUTC\+00:00/);
  });

  it("falls back to the deployment zone when the caller's zone is invalid, and says so", async () => {
    const text = await tool("Asia/Kolkata").run({}, { timeZone: "Mars/Olympus_Mons", signal });
    expect(text).toContain("Asia/Kolkata");
    expect(text).toContain("+05:30");
    expect(text).toContain('"Mars/Olympus_Mons" is not recognised');
  });

  it("answers for another zone when the model asks, with half-hour negative offsets right", async () => {
    const text = await tool().run({ time_zone: "America/St_Johns" }, { timeZone: "Europe/Paris", signal });
    expect(text).toContain("America/St_Johns");
    expect(text).toContain("2025-01-14T23:34:05-03:30");
  });

  it("refuses an unknown requested zone as an argument error", async () => {
    await expect(tool().run({ time_zone: "Not/AZone" }, { timeZone: "UTC", signal })).rejects.toThrow(ToolArgsError);
    await expect(tool().run({ time_zone: 7 }, { timeZone: "UTC", signal })).rejects.toThrow(ToolArgsError);
    await expect(tool().run("not json", { timeZone: "UTC", signal })).rejects.toThrow(ToolArgsError);
  });

  it("accepts missing arguments and an explicit UTC, naming UTC", async () => {
    expect(await tool().run(undefined, { timeZone: "UTC", signal })).toContain("time zone UTC (UTC+00:00)");
  });

  it("refuses an invalid deployment zone at start-up", () => {
    expect(() => createCurrentTime({ deploymentTimeZone: "Nowhere/Land" })).toThrow(/not an IANA zone/);
  });

  it("validates zones through Intl", () => {
    expect(canonicalTimeZone("europe/london")).toBe("Europe/London");
    expect(canonicalTimeZone("bogus")).toBeUndefined();
    expect(canonicalTimeZone(undefined)).toBeUndefined();
    expect(describeTime(instant, "Asia/Tokyo")).toContain("2025-01-15T12:04:05+09:00");
  });
});
