// The key layout both planes use: the avatar id rule is the box's own, keys cannot name anything
// outside the store, and the owner's folder is a digest (no e-mail address in a key or a URL).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SAFE_ID } from "../../box/avatars/own/ids.ts";
import { AVATAR_ID, assetFileKind, avatarPrefix, clipKey, contentTypeOf, isAssetKey, ownerFolder, portraitKey } from "./asset-keys.ts";

describe("asset keys", () => {
  it("avatar ids follow the box's own rule exactly", () => {
    expect(AVATAR_ID.source).toBe(SAFE_ID.source);
  });

  it("the owner's folder is the SHA-256 of the trimmed, lower-case e-mail", async () => {
    const hex = createHash("sha256").update("ada@example.com").digest("hex");
    expect(await ownerFolder("ada@example.com")).toBe(hex);
    expect(await ownerFolder(" Ada@Example.COM ")).toBe(hex);
    expect(await portraitKey("ada@example.com", "ada")).toBe(`avatars/${hex}/ada/portrait.png`);
    expect(await clipKey("ada@example.com", "ada", "happy")).toBe(`avatars/${hex}/ada/clip-happy.mp4`);
    expect(await portraitKey("ada@example.com", "ada")).not.toContain("@");
  });

  it("refuses to build a prefix from an id no box makes", async () => {
    for (const bad of ["", "..", "a/b", "a.b", "A", "café", "a--b", "-a", "a".repeat(65), "a%2Fb"]) {
      await expect(avatarPrefix("ada@example.com", bad), bad).rejects.toThrow();
    }
  });

  it("accepts layout keys and refuses anything that could leave the store or needs encoding", () => {
    for (const ok of ["avatars/0f/ada/portrait.png", "a", "a/b/c.d.e", "x_y-z/1.mp4"]) expect(isAssetKey(ok), ok).toBe(true);
    for (const bad of [
      "",
      "/a",
      "a/",
      "a//b",
      "../a",
      "a/../b",
      "a/./b",
      ".a",
      "a/.b",
      "a..b",
      "A/b",
      "a b",
      "a%2Fb",
      "a\\b",
      "ü",
      "a\u0000",
      "a/b/c/d/e/f/g/h/i",
      "a".repeat(129),
      42,
      null,
    ]) {
      expect(isAssetKey(bad), String(bad)).toBe(false);
    }
  });

  it("names what each file of an avatar's folder is, and ignores the rest", () => {
    expect(assetFileKind("portrait.png")).toEqual({ kind: "image", order: 0 });
    expect(assetFileKind("clip-neutral.mp4")).toEqual({ kind: "video", order: 1 });
    expect(assetFileKind("clip-serious.mp4")?.kind).toBe("video");
    for (const other of ["clip-grumpy.mp4", "preview.png", "clip-happy.webm", "notes.txt"]) expect(assetFileKind(other)).toBeNull();
    expect([contentTypeOf("a/portrait.png"), contentTypeOf("a/clip-sad.mp4"), contentTypeOf("a/x")]).toEqual([
      "image/png",
      "video/mp4",
      "application/octet-stream",
    ]);
  });
});
