// The logger writes one JSON line per event with its level, time and message, drops lines below
// its level, writes errors as their stack, and refuses an unknown level name.
import { describe, expect, it } from "vitest";
import { createLogger, parseLogLevel, setLogLevel } from "./log.ts";

const NOW = () => new Date("2026-11-29T12:00:00.000Z");

function capture(level?: "debug" | "info" | "warn" | "error") {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ level, now: NOW, write: (l) => lines.push(JSON.parse(l)) }) };
}

describe("createLogger", () => {
  it("writes level, time, message and the fields on one JSON line", () => {
    const { lines, logger } = capture();
    logger.warn("voice stream cut", { engine: "ElevenLabs", skipped: undefined });
    expect(lines).toEqual([{ level: "warn", time: "2026-11-29T12:00:00.000Z", msg: "voice stream cut", engine: "ElevenLabs" }]);
  });

  it("drops lines below its level", () => {
    const { lines, logger } = capture("warn");
    logger.debug("a");
    logger.info("b");
    logger.warn("c");
    logger.error("d");
    expect(lines.map((l) => l.msg)).toEqual(["c", "d"]);
  });

  it("follows the process level when made without one", () => {
    const { lines, logger } = capture();
    setLogLevel("error");
    logger.warn("hidden");
    setLogLevel("debug");
    logger.debug("shown");
    setLogLevel("info");
    expect(lines.map((l) => l.msg)).toEqual(["shown"]);
  });

  it("writes an Error as its stack, and a child adds its fields to every line", () => {
    const { lines, logger } = capture();
    logger.child({ part: "voices" }).error("turn failed", { error: new Error("boom") });
    expect(lines[0].part).toBe("voices");
    expect(String(lines[0].error)).toMatch(/^Error: boom\n\s+at /);
  });

  it("a line whose fields cannot be serialised still says what happened", () => {
    const { lines, logger } = capture();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    logger.error("odd", { loop });
    expect(lines).toEqual([{ level: "error", time: "2026-11-29T12:00:00.000Z", msg: "odd", note: "fields not serialisable" }]);
  });
});

describe("parseLogLevel", () => {
  it("takes the four names in any case, info when unset, and refuses others", () => {
    expect(parseLogLevel(undefined, "BOX_LOG_LEVEL")).toBe("info");
    expect(parseLogLevel(" WARN ", "BOX_LOG_LEVEL")).toBe("warn");
    expect(() => parseLogLevel("verbose", "BOX_LOG_LEVEL")).toThrow('BOX_LOG_LEVEL must be one of debug, info, warn, error, not "verbose"');
  });
});
