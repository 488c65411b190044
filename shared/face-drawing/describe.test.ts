// The description reader and the seeded look: each word family changes what it names, the same
// description and seed draw the same SVG, another seed another face; the stock faces are untouched
// by the optional fields.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { STOCK_LOOKS } from "../../box/avatars/stock/looks.ts";
import { lookFromDescription, parseDescription } from "./describe.ts";
import { lookFromTraits } from "./look-from-traits.ts";
import { EYE_COLOURS, HAIR_COLOURS, NAMED_COLOURS, SKIN_TONES } from "./palette.ts";
import { drawFaceSvg, type FaceLook } from "./svg-face.ts";

const SEED = 12345;
const look = (d: string, seed = SEED) => lookFromDescription(d, seed);
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("parseDescription", () => {
  it("reads the example persona", () => {
    const t = parseDescription("an elderly man with glasses, grey hair, a beard and a blue shirt, smiling");
    expect(t).toMatchObject({
      gender: "masculine",
      age: 76,
      hairColour: "grey",
      facialHair: "full",
      mood: "smile",
      glasses: { shape: null, frame: null },
      clothing: { colour: NAMED_COLOURS.blue, style: "collar" },
    });
  });

  it("hair colour and style, as adjectives, compounds and standalone words", () => {
    expect(parseDescription("long curly red hair")).toMatchObject({ hairColour: "red", hairStyle: "curly" });
    expect(parseDescription("long wavy brown hair")).toMatchObject({ hairColour: "brown", hairStyle: "long" });
    expect(parseDescription("a red-haired woman").hairColour).toBe("red");
    expect(parseDescription("a blonde woman").hairColour).toBe("blonde");
    expect(parseDescription("a redhead").hairColour).toBe("red");
    expect(parseDescription("salt-and-pepper hair").hairColour).toBe("salt and pepper");
    expect(parseDescription("light brown hair").hairColour).toBe("light brown");
    expect(parseDescription("white hair in a bun")).toMatchObject({ hairColour: "white", hairStyle: "bun" });
    expect(parseDescription("curly black hair")).toMatchObject({ hairColour: "black", hairStyle: "curly" });
    expect(parseDescription("an afro").hairStyle).toBe("curly");
    expect(parseDescription("a bald man").hairStyle).toBe("bald");
    expect(parseDescription("a shaved head").hairStyle).toBe("bald");
    expect(parseDescription("short hair").hairStyle).toBe("short");
    expect(parseDescription("pink hair").hairColour).toBe(NAMED_COLOURS.pink);
  });

  it("skin tone words, with skin nouns and alone", () => {
    expect(parseDescription("dark skin").skin).toEqual([6, 6]);
    expect(parseDescription("a dark-skinned woman").skin).toEqual([6, 6]);
    expect(parseDescription("a pale man").skin).toEqual([0, 0]);
    expect(parseDescription("olive skin").skin).toEqual([3, 3]);
    expect(parseDescription("a tanned surfer").skin).toEqual([4, 4]);
    expect(parseDescription("a Black woman").skin).toEqual([5, 7]);
    // Not skin: a colour of something else.
    expect(parseDescription("pale blue eyes").skin).toBeNull();
    expect(parseDescription("an olive jacket").skin).toBeNull();
  });

  it("eye colour", () => {
    expect(parseDescription("blue eyes").eyes).toBe("blue");
    expect(parseDescription("a green-eyed man").eyes).toBe("green");
    expect(parseDescription("pale blue eyes").eyes).toBe("light blue");
    expect(parseDescription("hazel eyes").eyes).toBe("hazel");
  });

  it("age from words and numbers", () => {
    expect(parseDescription("a 45-year-old teacher").age).toBe(45);
    expect(parseDescription("a man, 62 years old").age).toBe(62);
    expect(parseDescription("aged 38").age).toBe(38);
    expect(parseDescription("a woman in her fifties").age).toBe(55);
    expect(parseDescription("in his early 30s").age).toBe(32);
    expect(parseDescription("a young man").age).toBe(24);
    expect(parseDescription("a middle-aged woman").age).toBe(48);
    expect(parseDescription("an old man").age).toBe(68);
    expect(parseDescription("an elderly woman").age).toBe(76);
    expect(parseDescription("a person").age).toBeNull();
  });

  it("glasses, with shape and frame words", () => {
    expect(parseDescription("round glasses").glasses).toEqual({ shape: "round", frame: null });
    expect(parseDescription("thick black glasses").glasses).toEqual({ shape: "square", frame: NAMED_COLOURS.black });
    expect(parseDescription("spectacles").glasses).toEqual({ shape: null, frame: null });
    expect(parseDescription("a bespectacled clerk").glasses).not.toBeNull();
    expect(parseDescription("a man without glasses").glasses).toBeNull();
    expect(parseDescription("no glasses").glasses).toBeNull();
  });

  it("beard, moustache, goatee, stubble, clean-shaven", () => {
    expect(parseDescription("a beard").facialHair).toBe("full");
    expect(parseDescription("a bearded man").facialHair).toBe("full");
    expect(parseDescription("a grey beard")).toMatchObject({ facialHair: "full", facialHairColour: "grey" });
    expect(parseDescription("a moustache").facialHair).toBe("moustache");
    expect(parseDescription("a mustache").facialHair).toBe("moustache");
    expect(parseDescription("a goatee").facialHair).toBe("goatee");
    expect(parseDescription("stubble").facialHair).toBe("stubble");
    expect(parseDescription("clean-shaven").facialHair).toBe("none");
    expect(parseDescription("without a beard").facialHair).toBeNull();
  });

  it("clothing colour and neckline", () => {
    expect(parseDescription("a red shirt").clothing).toEqual({ colour: NAMED_COLOURS.red, style: "collar" });
    expect(parseDescription("a green jacket").clothing).toEqual({ colour: NAMED_COLOURS.green, style: "collar" });
    expect(parseDescription("a yellow sweater").clothing).toEqual({ colour: NAMED_COLOURS.yellow, style: "scoop" });
    expect(parseDescription("a grey t-shirt").clothing).toEqual({ colour: NAMED_COLOURS.grey, style: "scoop" });
    expect(parseDescription("dressed in navy").clothing.colour).toBe(NAMED_COLOURS.navy);
    const light = parseDescription("a light blue shirt").clothing.colour;
    expect(light).not.toBe(NAMED_COLOURS.blue);
    expect(parseInt(light!.slice(5), 16)).toBeGreaterThan(parseInt(NAMED_COLOURS.blue.slice(5), 16));
  });

  it("mood words, and their negation", () => {
    for (const w of ["happy", "cheerful", "smiling", "friendly"]) expect(parseDescription(`a ${w} man`).mood, w).toBe("smile");
    for (const w of ["serious", "stern"]) expect(parseDescription(`a ${w} woman`).mood, w).toBe("serious");
    expect(parseDescription("a calm, relaxed person").mood).toBe("calm");
    expect(parseDescription("a sad clown").mood).toBe("sad");
    expect(parseDescription("not smiling").mood).toBeNull();
  });

  it("gender words only as hints, ties unknown", () => {
    expect(parseDescription("a woman").gender).toBe("feminine");
    expect(parseDescription("a gentleman").gender).toBe("masculine");
    expect(parseDescription("a person").gender).toBeNull();
  });

  it("ignores words it does not know", () => {
    expect(parseDescription("a quantum chromodynamics enthusiast")).toMatchObject({
      gender: null,
      age: null,
      hairColour: null,
      hairStyle: null,
      skin: null,
      eyes: null,
      glasses: null,
      facialHair: null,
      mood: null,
    });
  });
});

describe("lookFromDescription", () => {
  /** The look with one word family added to a neutral description, same seed. */
  const diff = (extra: string): [FaceLook, FaceLook] => [look("a person"), look(`a person with ${extra}`)];

  it("each word family changes the look where it should", () => {
    let [a, b] = diff("bright pink hair");
    expect(b.hair).not.toBe(a.hair);
    [a, b] = [look("a woman"), look("a woman with grey hair")];
    expect(b.hair).toBe(HAIR_COLOURS.grey.hair);
    [a, b] = [look("a person"), look("a person with very dark skin")];
    expect(b.skin).toBe(SKIN_TONES[7].skin);
    [a, b] = [look("a person"), look("a person with pale skin")];
    expect(b.skin).toBe(SKIN_TONES[0].skin);
    expect(look("a person with green eyes").iris).toBe(EYE_COLOURS.green);
    expect(look("a person with glasses").glasses).toBeDefined();
    expect(look("a person").glasses).toBeUndefined();
    expect(look("a man with a beard").facialHair?.style).toBe("full");
    expect(look("a man with a moustache").facialHair?.style).toBe("moustache");
    expect(look("a man with stubble").stubble).toBeDefined();
    expect(look("a person in a red shirt").cloth).toBe(NAMED_COLOURS.red);
    expect(look("a smiling person").mood).toBe("smile");
    expect(look("a stern person").mood).toBe("serious");
    expect(look("an elderly person").age).toBe(76);
    expect(look("a 30-year-old").age).toBe(30);
    expect(look("a curly-haired person").hairStyle).toBe("curly");
    expect(look("a bald person").hairStyle).toBe("bald");
    expect(look("a person with freckles").freckles).toBe(true);
  });

  it("changes only what the description decides: the rest of the face stays with the seed", () => {
    const a = look("a woman");
    const b = look("a woman with glasses and a green jacket");
    expect(b.geo).toEqual(a.geo);
    expect({ ...b, glasses: undefined, cloth: a.cloth, clothShade: a.clothShade, clothStyle: a.clothStyle }).toEqual({
      ...a,
      glasses: undefined,
    });
  });

  it("each word family changes the drawing", () => {
    const base = drawFaceSvg(look("a man"));
    for (const extra of [
      "glasses",
      "a beard",
      "a moustache",
      "grey hair",
      "blue eyes",
      "a red shirt",
      "a smile",
      "a serious look",
      "freckles",
      "curly hair",
      "a bald head",
      "dark skin",
    ]) {
      expect(drawFaceSvg(look(`a man with ${extra}`)), extra).not.toBe(base);
    }
    expect(drawFaceSvg(look("an old man"))).not.toBe(drawFaceSvg(look("a 30-year-old man")));
  });

  it("the same description and seed draw the same SVG; other seeds other faces", () => {
    const d = "an elderly man with glasses, grey hair, a beard and a blue shirt, smiling";
    expect(drawFaceSvg(look(d, 7))).toBe(drawFaceSvg(look(d, 7)));
    const svgs = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((s) => sha(drawFaceSvg(look(d, s)))));
    expect(svgs.size).toBe(8);
    // What the description says holds for every seed.
    for (const s of [1, 2, 3, 4, 5]) {
      const l = look(d, s);
      expect(l).toMatchObject({ hair: HAIR_COLOURS.grey.hair, mood: "smile", age: 76, cloth: NAMED_COLOURS.blue, lashFlick: false });
      expect(l.glasses).toBeDefined();
      expect(l.facialHair?.style).toBe("full");
    }
  });

  it("keeps the geometry within the stock faces' natural ranges", () => {
    for (let s = 0; s < 200; s++) {
      const g = lookFromTraits(parseDescription(s % 2 ? "a woman" : "a man"), s * 7919).geo;
      expect(g.hairline).toBeGreaterThanOrEqual(96);
      expect(g.chin).toBeLessThanOrEqual(396);
      expect(g.browY).toBeLessThan(g.eyeY - 25);
      expect(g.noseY).toBeGreaterThan(g.eyeY + 45);
      expect(g.mouthY).toBeGreaterThan(g.noseY + 35);
      expect(g.chin - g.mouthY).toBeGreaterThan(45);
    }
  });
});

describe("stock faces", () => {
  // The stock faces are API-visible stills and the renderer's source images: one look must give one
  // picture, whatever was drawn before it (soft shapes number their gradients per drawing).
  it("draw the same SVG every time, whatever was drawn before", () => {
    const first = STOCK_LOOKS.map((l) => sha(drawFaceSvg(l)));
    drawFaceSvg(look("a woman with curly hair", 3));
    expect([...STOCK_LOOKS].reverse().map((l) => sha(drawFaceSvg(l)))).toEqual([...first].reverse());
    expect(new Set(first).size).toBe(STOCK_LOOKS.length);
  });
});
