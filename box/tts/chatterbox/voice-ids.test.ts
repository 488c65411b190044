import { describe, expect, it } from "vitest";
import { VoiceProviderError } from "../engine.ts";
import { sanitizeFilename } from "./testing/fake-multipart.ts";
import { cloneVoiceId, displayNameOf, parseVoiceId, referenceFileName, referenceOwnerOf } from "./voice-ids.ts";

describe("chatterbox voice ids", () => {
  it("maps file names to predefined voices and clone: ids to reference files", () => {
    expect(parseVoiceId("Emily.wav")).toEqual({ mode: "predefined", file: "Emily.wav" });
    expect(parseVoiceId(cloneVoiceId("my_voice--0a1b2c3d.wav"))).toEqual({ mode: "clone", file: "my_voice--0a1b2c3d.wav" });
  });

  it.each([
    ["../config.yaml", '"/", "\\" or ".."'],
    ["voices/Emily.wav", '"/", "\\" or ".."'],
    ["clone:..\\x.wav", '"/", "\\" or ".."'],
    ["a..b.wav", '"/", "\\" or ".."'],
    ["Emily\u0000.wav", "control characters"],
    ["Emily\n.wav", "control characters"],
    ["x".repeat(129), "longer than 128"],
    ["", "empty"],
    ["clone:", "names no file"],
  ])("refuses %j as a 404 before any request", (id, why) => {
    let err: unknown;
    try {
      parseVoiceId(id);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VoiceProviderError);
    expect(err).toMatchObject({ status: 404, failure: "refused", retryable: false });
    expect((err as Error).message).toContain(why);
    expect((err as Error).message).toMatch(/^Chatterbox voice .* is not a valid voice id/);
  });

  it("accepts 128 characters", () => {
    expect(parseVoiceId("x".repeat(124) + ".wav").file).toHaveLength(128);
  });

  it("names uploads so that the server keeps them as sent, and reads the name back", () => {
    const owner = "0123456789abcdef";
    const file = referenceFileName("Zoë's voice / take 2", "wav", "0a1b2c3d", owner);
    expect(file).toBe("Zoe_s_voice_take_2--0123456789abcdef-0a1b2c3d.wav");
    expect(sanitizeFilename(file)).toBe(file);
    expect(displayNameOf(file)).toBe("Zoe s voice take 2");
    expect(referenceFileName("???", "mp3", "00000000", owner)).toBe("voice--0123456789abcdef-00000000.mp3");
    expect(referenceFileName("a--b", "wav", "11111111", owner)).toBe("a-b--0123456789abcdef-11111111.wav");
    expect(displayNameOf("Gianna.wav")).toBe("Gianna");
    expect(displayNameOf("my_voice--1a2b3c4d.wav")).toBe("my voice"); // cloned before clones had owners
  });

  it("reads whose a reference file is from its name", () => {
    expect(referenceOwnerOf(referenceFileName("Me", "wav", "0a1b2c3d", "0123456789abcdef"))).toEqual({ owner: "0123456789abcdef" });
    expect(referenceOwnerOf("Me--0a1b2c3d.wav")).toBe("unowned");
    expect(referenceOwnerOf("Gianna.wav")).toBe("server");
    expect(referenceOwnerOf("a--b.wav")).toBe("server");
    // The owner tag sits before the unique tag, never at the end where anyone could append one.
    expect(referenceOwnerOf("x--0123456789abcdef.wav")).toBe("server");
  });
});
