import { describe, expect, it } from "vitest";
import { TONES } from "../../../shared/wire/tones.ts";
import { parseGestureAmplitude, planTones } from "./tone-plan.ts";

const base = { photoAvatar: true, aiGenerated: false, tonesField: undefined as string | undefined, takeTones: [] as string[] };

describe("planTones", () => {
  it("a photo: every tone when none is named; the named ones (and the base) otherwise; unknown names in the note", () => {
    expect(planTones({ ...base, family: "image" })).toMatchObject({ buildsPlanned: true, tones: [...TONES], note: "" });
    const p = planTones({ ...base, family: "image", tonesField: " Happy, sad ,angry,happy" });
    expect(p.tones).toEqual(["neutral", "happy", "sad"]);
    expect(p.asked).toEqual(["happy", "sad", "angry"]);
    expect(p.note).toMatch(/angry/);
  });

  it("a photo with photo avatar creation off: the base face alone, nothing read", () => {
    const p = planTones({ ...base, family: "image", photoAvatar: false, tonesField: "happy" });
    expect(p).toMatchObject({ buildsPlanned: false, tones: ["neutral"] });
    expect(p.note).toMatch(/off/);
  });

  it("a video without takes or ai_generated: the base idle face alone, and the note says why", () => {
    const p = planTones({ ...base, family: "video", tonesField: "happy,sad" });
    expect(p).toMatchObject({ buildsPlanned: false, tones: ["neutral"] });
    expect(p.note).toMatch(/take__<tone>.*ai_generated/);
    expect(planTones({ ...base, family: "video" }).note).toBe("");
  });

  it("a video with takes: the base and the tones with footage; asked tones without footage noted", () => {
    const p = planTones({ ...base, family: "video", tonesField: "happy,sad", takeTones: ["happy", "happy", "angry"] });
    expect(p).toMatchObject({ buildsPlanned: true, tones: ["neutral", "happy"], takeTones: ["happy"] });
    expect(p.note).toMatch(/take__angry/);
    expect(p.note).toMatch(/sad/);
  });

  it("a video declared ai_generated: the asked tones (all when none named)", () => {
    expect(planTones({ ...base, family: "video", aiGenerated: true, tonesField: "serious" }).tones).toEqual(["neutral", "serious"]);
    expect(planTones({ ...base, family: "video", aiGenerated: true }).tones).toEqual([...TONES]);
  });
});

describe("parseGestureAmplitude", () => {
  it("takes 0..2 or a word; empty is the default; anything else is invalid", () => {
    expect(parseGestureAmplitude(undefined)).toBeNull();
    expect(parseGestureAmplitude(" ")).toBeNull();
    expect(parseGestureAmplitude("0.4")).toBe(0.4);
    expect(parseGestureAmplitude("HIGH")).toBe(1.5);
    for (const bad of ["3", "-1", "lots", "NaN", "Infinity"]) expect(parseGestureAmplitude(bad), bad).toBe("invalid");
  });
});
