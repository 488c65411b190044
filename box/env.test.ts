// The box environment: reply audio retention variables (defaults, 0 = no limit, refusals) and
// the speculative-replies switch.
import { describe, expect, it } from "vitest";
import { readBoxEnv } from "./env.ts";

describe("BOX_REPLY_AUDIO_*", () => {
  it("BOX_LOG_LEVEL: info unless set, the four level names, a readable refusal otherwise", () => {
    expect(readBoxEnv({}).logLevel).toBe("info");
    expect(readBoxEnv({ BOX_LOG_LEVEL: "Warn" }).logLevel).toBe("warn");
    expect(() => readBoxEnv({ BOX_LOG_LEVEL: "loud" })).toThrow(/BOX_LOG_LEVEL must be one of debug, info, warn, error/);
  });

  it("defaults to a day and 50 MB per subject", () => {
    expect(readBoxEnv({}).replyAudio).toEqual({ maxAgeSeconds: 86_400, maxBytesPerSubject: 50 * 1024 * 1024 });
  });

  it("takes seconds and (fractional) megabytes; 0 means no limit", () => {
    expect(readBoxEnv({ BOX_REPLY_AUDIO_MAX_AGE_SECONDS: "3600", BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT: "0.5" }).replyAudio).toEqual({
      maxAgeSeconds: 3600,
      maxBytesPerSubject: 524_288,
    });
    expect(readBoxEnv({ BOX_REPLY_AUDIO_MAX_AGE_SECONDS: "0", BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT: "0" }).replyAudio).toEqual({
      maxAgeSeconds: null,
      maxBytesPerSubject: null,
    });
  });

  it("refuses negative or unreadable values", () => {
    expect(() => readBoxEnv({ BOX_REPLY_AUDIO_MAX_AGE_SECONDS: "-1" })).toThrow();
    expect(() => readBoxEnv({ BOX_REPLY_AUDIO_MAX_AGE_SECONDS: "a day" })).toThrow();
    expect(() => readBoxEnv({ BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT: "-5" })).toThrow();
    expect(() => readBoxEnv({ BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT: "lots" })).toThrow();
  });
});

describe("BOX_SPECULATIVE_REPLIES", () => {
  it("is on by default and for 1/on/true; 0/off/false switch it off; anything else is refused", () => {
    expect(readBoxEnv({}).speculativeReplies).toBe(true);
    for (const v of ["1", "on", "TRUE"]) expect(readBoxEnv({ BOX_SPECULATIVE_REPLIES: v }).speculativeReplies).toBe(true);
    for (const v of ["0", "off", "false", " Off "]) expect(readBoxEnv({ BOX_SPECULATIVE_REPLIES: v }).speculativeReplies).toBe(false);
    expect(() => readBoxEnv({ BOX_SPECULATIVE_REPLIES: "sometimes" })).toThrow(/BOX_SPECULATIVE_REPLIES/);
  });
});
