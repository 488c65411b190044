import { describe, expect, it } from "vitest";
import { sanitizeClientContext } from "./client-context.ts";

describe("sanitizeClientContext", () => {
  it("keeps the four valid facts, canonicalised", () => {
    expect(
      sanitizeClientContext({ timezone: "Australia/Sydney", name: "  Ada  Lovelace ", location: "Sydney, Australia", locale: "en-au" }),
    ).toEqual({
      timezone: "Australia/Sydney",
      name: "Ada Lovelace",
      location: "Sydney, Australia",
      locale: "en-AU",
    });
  });
  it("drops each invalid fact on its own and ignores anything else", () => {
    expect(sanitizeClientContext({ timezone: "Mars/Olympus", name: "Ada", locale: "en_AU!!", extra: 1 })).toEqual({ name: "Ada" });
    expect(sanitizeClientContext({ name: "x".repeat(65), location: "<script>", timezone: 5 })).toEqual({});
    expect(sanitizeClientContext({ name: "Bob\u0000", location: "Paris\nFrance" })).toEqual({ location: "Paris France" });
    expect(sanitizeClientContext("nope")).toEqual({});
    expect(sanitizeClientContext(null)).toEqual({});
  });
});
