// Draws a look from parsed description traits and a seed: what the description names is used as
// named; what it leaves open (and the geometry) is drawn from the seed within natural ranges,
// close to the proportions of the stock faces, so every seed is a believable face.
import type { PortraitTraits } from "./describe.ts";
import { BACKGROUNDS, darken, DEFAULT_CLOTHES, EYE_COLOURS, HAIR_COLOURS, lighten, mix, SKIN_TONES, type HairColour } from "./palette.ts";
import { seededRandom } from "../util/seeded-random.ts";
import type { FaceGeometry, FaceLook, HairStyle } from "./svg-face.ts";

type Rnd = () => number;

const between = (u: number, lo: number, hi: number) => lo + u * (hi - lo);
const pick = <T>(u: number, items: readonly T[]): T => items[Math.floor(u * items.length) % items.length];

/** Weighted choice by `u` in [0, 1): `[item, weight][]`. */
function weighted<T>(u: number, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = u * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1][0];
}

function geometry(rnd: Rnd, feminine: boolean, age: number): FaceGeometry {
  const r = (lo: number, hi: number) => Math.round(between(rnd(), lo, hi) * 10) / 10;
  const eyeY = r(216, 228);
  const noseY = eyeY + r(53, 60);
  const older = Math.max(0, Math.min(1, (age - 45) / 35));
  return {
    cx: 256,
    hairline: r(96, 112),
    chin: r(382, 396),
    faceW: feminine ? r(210, 226) : r(226, 242),
    jawW: feminine ? r(134, 152) : r(162, 182),
    eyeY,
    eyeDx: r(47, 55),
    eyeW: r(45, 49),
    // Eyes look a little smaller and noses a little longer with the years.
    eyeH: (feminine ? r(16, 19) : r(14, 17)) - older * 1.5,
    browY: eyeY - r(29, 34),
    browW: feminine ? r(52, 57) : r(56, 62),
    browT: feminine ? r(5.5, 7) : r(8, 10),
    noseY: noseY + older * 2,
    noseW: feminine ? r(38, 43) : r(46, 52),
    mouthY: noseY + r(40, 46),
    mouthW: feminine ? r(80, 88) : r(86, 94),
    neckW: feminine ? r(86, 94) : r(106, 116),
  };
}

function hairColour(traits: PortraitTraits, u: [number, number], age: number, skin: number): HairColour {
  const named = traits.hairColour;
  if (named?.startsWith("#")) return { hair: darken(named, 0.25), light: lighten(named, 0.2) };
  if (named && named in HAIR_COLOURS) return HAIR_COLOURS[named];
  if (age >= 68)
    return HAIR_COLOURS[
      weighted(u[1], [
        ["white", 1],
        ["grey", 2],
      ])
    ];
  if (age >= 52 && u[0] < 0.6)
    return HAIR_COLOURS[
      weighted(u[1], [
        ["salt and pepper", 2],
        ["grey", 1],
      ])
    ];
  return HAIR_COLOURS[
    weighted(
      u[1],
      skin >= 4
        ? [
            ["black", 6],
            ["dark brown", 3],
            ["brown", 1],
          ]
        : [
            ["black", 2],
            ["dark brown", 3],
            ["brown", 3],
            ["light brown", 2],
            ["chestnut", 1],
            ["auburn", 1],
            ["blonde", 2],
            ["red", 1],
          ],
    )
  ];
}

function hairStyle(traits: PortraitTraits, u: [number, number], feminine: boolean, age: number): HairStyle {
  if (traits.hairStyle) return traits.hairStyle;
  if (feminine)
    return weighted(u[1], [
      ["long", 6],
      ["bun", 3],
      ["curly", 2],
    ]);
  if (age >= 58 && u[0] < 0.3) return "bald";
  return weighted(u[1], [
    ["short", 8],
    ["curly", 2],
  ]);
}

export function lookFromTraits(traits: PortraitTraits, seed: number): FaceLook {
  // Every choice's random number is drawn up front, in a fixed order, and the geometry has its own
  // stream: with one seed, a face changes only where the description decides something.
  const rnd = seededRandom(seed);
  const u = Array.from({ length: 14 }, rnd);
  const feminine = traits.gender ? traits.gender === "feminine" : u[0] < 0.5;
  const age = traits.age ?? Math.round(between(u[1], 24, 46));
  const geo = geometry(seededRandom(seed ^ 0x5bd1e995), feminine, age);
  const [lo, hi] = traits.skin ?? [0, SKIN_TONES.length - 1];
  const skinIndex = Math.min(hi, lo + Math.floor(u[2] * (hi - lo + 1)));
  const tone = SKIN_TONES[skinIndex];
  const hc = hairColour(traits, [u[3], u[4]], age, skinIndex);
  const style = hairStyle(traits, [u[5], u[6]], feminine, age);
  const eyeName =
    traits.eyes ??
    (skinIndex >= 4
      ? weighted(u[7], [
          ["dark brown", 3],
          ["brown", 2],
          ["hazel", 1],
        ])
      : weighted(u[7], [
          ["brown", 4],
          ["blue", 3],
          ["green", 2],
          ["hazel", 1],
          ["grey", 1],
        ]));
  const clothColour = traits.clothing.colour ?? pick(u[8], DEFAULT_CLOTHES);
  const clothStyle = traits.clothing.style ?? (u[9] < (feminine ? 0.3 : 0.6) ? "collar" : "scoop");
  const bg = pick(u[10], BACKGROUNDS);
  const detailSeed = Math.floor(u[11] * 1e6) + 1;
  const stubbleChance = u[12];
  const glassesShape = u[13] < 0.5 ? "round" : "square";

  const grey = hc === HAIR_COLOURS.grey || hc === HAIR_COLOURS.white || hc === HAIR_COLOURS.platinum;
  // Brows follow the hair, a shade darker; grey hair keeps a little of its old colour in the brows.
  const brow = grey ? mix(hc.hair, "#4a3f38", 0.35) : darken(hc.hair, 0.15);
  const facial = traits.facialHairColour && traits.facialHairColour in HAIR_COLOURS ? HAIR_COLOURS[traits.facialHairColour] : hc;
  const lip = feminine ? mix(tone.lip, "#c0405a", 0.25) : mix(tone.lip, tone.shade, 0.35);
  const agedLip = age >= 60 ? mix(lip, tone.skin, 0.2) : lip;
  const look: FaceLook = {
    id: "portrait",
    label: "Portrait",
    bg: [bg[0], bg[1]],
    skin: tone.skin,
    skinShade: tone.shade,
    blush: tone.blush,
    hair: hc.hair,
    hairLight: hc.light,
    hairStyle: style,
    iris: EYE_COLOURS[eyeName] ?? EYE_COLOURS.brown,
    brow,
    lash: darken(mix(hc.hair, "#1a110d", 0.7), 0.1),
    lipUpper: agedLip,
    lipLower: lighten(agedLip, 0.1),
    cloth: clothColour,
    clothShade: darken(clothColour, 0.3),
    clothStyle,
    lashFlick: feminine,
    age,
    mood: traits.mood ?? "neutral",
    detailSeed,
    geo,
  };
  if (traits.glasses) {
    look.glasses = { shape: traits.glasses.shape ?? glassesShape, frame: traits.glasses.frame ?? (grey ? "#6b6e73" : "#2a2522") };
  }
  const fh = traits.facialHair;
  if (fh === "full" || fh === "goatee" || fh === "moustache") {
    look.facialHair = { style: fh, color: facial.hair, light: facial.light };
  } else if (fh === "stubble" || (fh === null && !feminine && stubbleChance < 0.2)) {
    look.stubble = darken(facial.hair, 0.1);
  }
  if (traits.freckles) look.freckles = true;
  return look;
}
