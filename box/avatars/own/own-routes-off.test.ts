// The own-avatar routes with BOX_PHOTO_AVATAR=off (testing/route-rig.ts): the feature's route is
// refused, a plain photo upload still works with the base face alone.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { A, JPG, type Rig, rig, subj, upload } from "./testing/route-rig.ts";

describe("BOX_PHOTO_AVATAR=off", () => {
  let r: Rig;
  beforeAll(async () => (r = await rig(mkdtempSync(join(tmpdir(), "own-off-")), { photoAvatar: false })));

  it("answers every photo_avatar.create with 501 feature_disabled, nested", async () => {
    for (const parts of [
      [],
      [
        ["file", [JPG, "p.jpg"]],
        ["avatar_id", "p"],
      ],
    ] as [string, string | [Buffer, string]][][]) {
      const res = await upload(r, A, parts, "/v1/photo_avatar.create");
      expect(res).toMatchObject({ status: 501, json: { error: { code: "feature_disabled", message: expect.any(String) } } });
    }
  });

  it("still takes a photo upload: the base face alone, and the build parameters are never read", async () => {
    const res = await upload(r, A, [
      ["file", [JPG, "p.jpg"]],
      ["tones", "happy"],
      ["framing", "nonsense"],
      ["gesture_amplitude", "wild"],
      ["consent_token", "c"],
    ]);
    expect(res).toMatchObject({ status: 200, json: { tones: ["neutral"], note: expect.stringMatching(/off/) } });
    await r.own.queue.idle();
    expect(r.own.get(subj(A), "p")!.manifest).toMatchObject({
      state: "ready",
      framing: null,
      gesture_amplitude: null,
      consent_token: null,
      builds_planned: false,
    });
  });
});
