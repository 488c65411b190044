// What of a key may be shown: four characters, fewer for short keys (at most a quarter ever shows).
import { describe, expect, it } from "vitest";
import { maskedOf, parseVoiceKey, tailOf } from "./service.ts";

describe("tailOf / maskedOf", () => {
  it("shows the last four characters of a real-length key and at most a quarter of a short one", () => {
    expect(tailOf("sk_0123456789abcdef")).toBe("cdef");
    expect(tailOf("0123456789abcdef")).toBe("cdef");
    expect(tailOf("0123456789ab")).toBe("9ab");
    expect(tailOf("abcdefg")).toBe("g");
    expect(tailOf("abc")).toBe("");
    expect(maskedOf("cdef")).toBe("\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022cdef");
  });

  it("trims surrounding spaces only, and keeps the key otherwise exact", () => {
    expect(parseVoiceKey("  sk_Abc-123.x_Y  ")).toBe("sk_Abc-123.x_Y");
    expect(() => parseVoiceKey("\tsk_abc")).toThrow(/control characters/);
    expect(() => parseVoiceKey("k".repeat(513))).toThrow(/513 characters/);
  });
});
