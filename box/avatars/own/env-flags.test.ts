import { describe, expect, it } from "vitest";
import { readBoxEnv } from "../../env.ts";

describe("BOX_PHOTO_AVATAR and BOX_AVATAR_CLIPS", () => {
  it("are on by default and switch off with off", () => {
    expect(readBoxEnv({})).toMatchObject({ photoAvatar: true, avatarClips: true });
    expect(readBoxEnv({ BOX_PHOTO_AVATAR: "off", BOX_AVATAR_CLIPS: "OFF" })).toMatchObject({ photoAvatar: false, avatarClips: false });
    expect(readBoxEnv({ BOX_PHOTO_AVATAR: "on", BOX_AVATAR_CLIPS: " on " })).toMatchObject({ photoAvatar: true, avatarClips: true });
  });
  it("refuse a value that is neither on nor off", () => {
    expect(() => readBoxEnv({ BOX_PHOTO_AVATAR: "maybe" })).toThrow(/BOX_PHOTO_AVATAR must be on or off/);
    expect(() => readBoxEnv({ BOX_AVATAR_CLIPS: "0" })).toThrow(/BOX_AVATAR_CLIPS/);
  });
});
