import { describe, expect, it } from "vitest";
import { SAFE_ID, avatarIdFromFilename, explicitAvatarId, ownerDir } from "./ids.ts";

describe("avatarIdFromFilename", () => {
  it("keeps the last path segment, drops the extension, lowercases and hyphenates", () => {
    expect(avatarIdFromFilename("Jane Doe.JPG")).toBe("jane-doe");
    expect(avatarIdFromFilename("../x.png")).toBe("x");
    expect(avatarIdFromFilename("a/b.jpg")).toBe("b");
    expect(avatarIdFromFilename("..\\..\\win.png")).toBe("win");
    expect(avatarIdFromFilename("my_face__happy.png")).toBe("my-face-happy");
    expect(avatarIdFromFilename("photo.tar.png")).toBe("photo-tar");
  });

  it("folds accents and names what has no ASCII left by a digest of the filename", () => {
    expect(avatarIdFromFilename("Zoë Åström.jpeg")).toBe("zoe-astrom");
    const cjk = avatarIdFromFilename("写真.jpg");
    expect(cjk).toMatch(/^avatar-[0-9a-f]{10}$/);
    expect(avatarIdFromFilename("写真.jpg")).toBe(cjk);
    expect(avatarIdFromFilename("別の写真.jpg")).not.toBe(cjk);
    expect(avatarIdFromFilename(".png")).toMatch(/^avatar-[0-9a-f]{10}$/);
    expect(avatarIdFromFilename("")).toMatch(/^avatar-[0-9a-f]{10}$/);
  });

  it("never shadows a stock face", () => {
    expect(avatarIdFromFilename("stock-ava.png")).toBe("my-stock-ava");
    expect(avatarIdFromFilename("Stock.png")).toBe("my-stock");
    expect(avatarIdFromFilename("stockholm.png")).toBe("stockholm");
  });

  it("always answers a safe id, bounded in length", () => {
    for (const name of [
      "a".repeat(500) + ".png",
      "--.png",
      "....",
      "/",
      "\u0000evil.png",
      "x\u202e.png",
      "🙂🙂.jpg",
      "CON.png",
      "a..b.png",
    ]) {
      const id = avatarIdFromFilename(name);
      expect(id, name).toMatch(SAFE_ID);
      expect(id.length).toBeLessThanOrEqual(64);
    }
  });
});

describe("explicitAvatarId and ownerDir", () => {
  it("takes a safe explicit id as given and refuses the rest", () => {
    expect(explicitAvatarId("presenter-1")).toBe("presenter-1");
    for (const bad of ["../x", "A", "a__happy", "a--b", "-a", "a/b", "", "é", " x", "x ", "x\n", "\tx"])
      expect(explicitAvatarId(bad), bad).toBeNull();
  });

  it("makes an owner folder that holds no subject text", () => {
    const d = ownerDir("owner:jane@example.com");
    expect(d).toMatch(/^o-[0-9a-f]{32}$/);
    expect(d).not.toContain("jane");
    expect(ownerDir("key:abc")).not.toBe(ownerDir("key:abd"));
  });
});
