// Reads a persona description ("an elderly man with glasses, grey hair, a beard and a blue shirt,
// smiling") into drawing traits, and draws a look from them with a seed: the same description and
// seed give the same face; another seed gives another face that still fits the description.
// Deterministic and dictionary-based: words it does not know are ignored, never guessed.
import {
  AGE_WORDS,
  BEARD_NOUNS,
  COLLAR_CLOTHES,
  DECADES,
  EYE_NOUNS,
  EYE_WORDS,
  FEMININE,
  GLASSES_NOUNS,
  HAIR_NOUNS,
  HAIR_STYLE_WORDS,
  HAIR_WORDS,
  MASCULINE,
  MOODS,
  MOUSTACHE_NOUNS,
  NEGATIONS,
  PERSON_NOUNS,
  PERSON_SKIN,
  SCOOP_CLOTHES,
  SKIN_NOUNS,
  SKIN_WORDS,
  STOP,
} from "./describe-words.ts";
import { lookFromTraits } from "./look-from-traits.ts";
import { mix, NAMED_COLOURS } from "./palette.ts";
import type { FaceLook, HairStyle, Mood } from "./svg-face.ts";

export interface ClothingTraits {
  /** Hex colour, or null for a seeded one. */
  colour: string | null;
  style: "scoop" | "collar" | null;
}

export interface PortraitTraits {
  gender: "feminine" | "masculine" | null;
  /** Years, or null for a seeded adult age. */
  age: number | null;
  /** A key of HAIR_COLOURS, or `#rrggbb` for a dyed colour. */
  hairColour: string | null;
  hairStyle: HairStyle | null;
  /** Indices into SKIN_TONES (lightest, deepest) the seed picks from; equal for a named tone. */
  skin: [number, number] | null;
  /** A key of EYE_COLOURS. */
  eyes: string | null;
  glasses: { shape: "round" | "square" | null; frame: string | null } | null;
  /** `none`: clean-shaven asked for. */
  facialHair: "full" | "goatee" | "moustache" | "stubble" | "none" | null;
  /** Colour of the facial hair when named apart from the hair ("a grey beard"): as hairColour. */
  facialHairColour: string | null;
  clothing: ClothingTraits;
  mood: Mood | null;
  freckles: boolean;
}

/** Lower case, compound words joined or split so each word family can be looked up by token. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/salt[ -]and[ -]pepper/g, "saltpepper")
    .replace(/middle[ -]aged/g, "middleaged")
    .replace(/\bt[ -]shirt/g, "tshirt")
    .replace(/\btank[ -]top/g, "tanktop")
    .replace(/\bbutton[ -]down/g, "buttondown")
    .replace(/\blab[ -]coat/g, "labcoat")
    .replace(/clean[ -]shaven/g, "cleanshaven")
    .replace(/no[ -]nonsense/g, "nononsense")
    .replace(/soft[ -]spoken/g, "softspoken")
    .replace(/shoulder[ -]length/g, "shoulderlength")
    .replace(/\bbuzz[ -]cut/g, "buzzcut")
    .replace(/\bcrew[ -]cut/g, "crewcut")
    .replace(/strawberry[ -]blond(e)?/g, "strawberryblonde")
    .replace(/light[ -]brown/g, "lightbrown")
    .replace(/dark[ -]brown/g, "darkbrown")
    .replace(/light[ -]blue/g, "lightblue");
}

/** An age written as a number: "45-year-old", "45 years old", "aged 45", "age 45", "in his fifties", "in her 50s". */
function numericAge(text: string): number | null {
  const m = /\b(\d{1,3})[ -]?(?:years?|yrs?|yo)\b(?:[ -]old)?/.exec(text) ?? /\b(?:aged?|age of)\s+(\d{1,3})\b/.exec(text);
  if (m) {
    const n = Number(m[1]);
    return n >= 1 && n <= 120 ? n : null;
  }
  const d =
    /\b(?:in (?:his|her|their) )?(?:(?:early|mid|late)[ -])?(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|[2-9]0s)\b/.exec(
      text,
    );
  if (!d) return null;
  const base = d[1].endsWith("0s") ? Number(d[1].slice(0, 2)) + 5 : DECADES[d[1]];
  const early = /early[ -]/.test(d[0]) ? -3 : /late[ -]/.test(d[0]) ? 3 : 0;
  return base + early;
}

interface Token {
  word: string;
  clause: number;
  negated: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  text.split(/[,.;:!?()\n]+/).forEach((clause, ci) => {
    const words = clause.split(/[\s\-/"']+/).filter(Boolean);
    words.forEach((word, i) => {
      const negated = words.slice(Math.max(0, i - 2), i).some((w) => NEGATIONS.has(w));
      out.push({ word, clause: ci, negated });
    });
  });
  return out;
}

/** Up to four words just before token `i` in the same clause, nearest first, stopping at a stop word. */
function modifiers(ts: Token[], i: number): string[] {
  const out: string[] = [];
  for (let j = i - 1; j >= 0 && out.length < 4; j--) {
    if (ts[j].clause !== ts[i].clause || STOP.has(ts[j].word)) break;
    out.push(ts[j].word);
  }
  return out;
}

const TONES: Record<string, number> = { light: 0.4, pale: 0.45, pastel: 0.5, bright: 0, dark: -0.4, deep: -0.35 };

/** A named colour among the modifiers, lightened or darkened by a tone word before it. */
function colourOf(mods: string[]): string | null {
  const expanded = mods.flatMap((w) =>
    w === "lightblue" ? ["blue", "light"] : w === "lightbrown" ? ["brown", "light"] : w === "darkbrown" ? ["brown", "dark"] : [w],
  );
  const at = expanded.findIndex((w) => w in NAMED_COLOURS);
  if (at < 0) return null;
  let colour = NAMED_COLOURS[expanded[at]];
  const tone = expanded.slice(at + 1).find((w) => w in TONES);
  if (tone) {
    const t = TONES[tone];
    colour = t > 0 ? mix(colour, "#ffffff", t) : t < 0 ? mix(colour, "#000000", -t) : colour;
  }
  return colour;
}

function hairColourOf(mods: string[]): string | null {
  for (const w of mods) {
    if (w === "lightbrown") return "light brown";
    if (w === "darkbrown") return "dark brown";
    if (w === "strawberryblonde") return "strawberry blonde";
    if (w in HAIR_WORDS) {
      // "dark red", "light blonde": the tone word comes before the colour, so it is read later.
      return HAIR_WORDS[w];
    }
  }
  // Dyed: pink, blue, green, purple hair.
  return colourOf(mods);
}

function eyeColourOf(mods: string[]): string | null {
  for (const w of mods) {
    if (w === "lightblue") return "light blue";
    if (w === "darkbrown") return "dark brown";
    if (w in EYE_WORDS) {
      const light = mods.includes("light") || mods.includes("pale");
      return EYE_WORDS[w] === "blue" && light ? "light blue" : EYE_WORDS[w];
    }
  }
  return null;
}

function skinOf(mods: string[]): number | null {
  for (const w of mods) {
    if (w === "lightbrown") return 2;
    if (w === "darkbrown") return 6;
    if (w in SKIN_WORDS) {
      const very = mods.includes("very");
      const base = SKIN_WORDS[w];
      return very ? (base >= 5 ? 7 : 0) : base;
    }
  }
  return null;
}

export function parseDescription(description: string): PortraitTraits {
  const text = normalise(description);
  const ts = tokens(text);
  const t: PortraitTraits = {
    gender: null,
    age: numericAge(text),
    hairColour: null,
    hairStyle: null,
    skin: null,
    eyes: null,
    glasses: null,
    facialHair: null,
    facialHairColour: null,
    clothing: { colour: null, style: null },
    mood: null,
    freckles: false,
  };
  let feminine = 0;
  let masculine = 0;
  const moodVotes = new Map<Mood, number>();
  for (let i = 0; i < ts.length; i++) {
    const { word, negated } = ts[i];
    const next = ts[i + 1]?.clause === ts[i].clause ? ts[i + 1].word : "";
    if (FEMININE.has(word)) feminine++;
    if (MASCULINE.has(word)) masculine++;
    if (negated) continue;
    if (t.age === null && word in AGE_WORDS) t.age = AGE_WORDS[word];
    if (word in MOODS) moodVotes.set(MOODS[word], (moodVotes.get(MOODS[word]) ?? 0) + 1);
    if (word === "freckles" || word === "freckled") t.freckles = true;

    if (HAIR_NOUNS.has(word)) {
      const mods = modifiers(ts, i);
      t.hairColour = hairColourOf(mods) ?? t.hairColour;
      const style = mods.map((w) => HAIR_STYLE_WORDS[w]).find(Boolean) ?? (word in HAIR_STYLE_WORDS ? HAIR_STYLE_WORDS[word] : undefined);
      if (style) t.hairStyle = style;
    } else if (word === "redhead" || word === "brunette" || word === "blonde" || word === "blond" || word === "strawberryblonde") {
      // Standalone ("a blonde woman"); "blonde hair" is read above when the noun follows.
      if (!HAIR_NOUNS.has(next)) t.hairColour = word === "strawberryblonde" ? "strawberry blonde" : HAIR_WORDS[word];
    } else if ((word === "bald" || word === "balding") && !HAIR_NOUNS.has(next)) {
      t.hairStyle = "bald";
    } else if (word === "shaved" && next === "head") {
      t.hairStyle = "bald";
    } else if (EYE_NOUNS.has(word)) {
      t.eyes = eyeColourOf(modifiers(ts, i)) ?? t.eyes;
    } else if (SKIN_NOUNS.has(word)) {
      const tone = skinOf(modifiers(ts, i));
      if (tone !== null) t.skin = [tone, tone];
    } else if (word in PERSON_SKIN && PERSON_NOUNS.has(next)) {
      t.skin = t.skin ?? PERSON_SKIN[word];
    } else if (
      (word === "pale" || word === "tanned" || word === "porcelain" || word === "olive") &&
      !ts
        .slice(i + 1, i + 3)
        .some(
          (x) =>
            x.clause === ts[i].clause &&
            (x.word in NAMED_COLOURS ||
              SKIN_NOUNS.has(x.word) ||
              COLLAR_CLOTHES.has(x.word) ||
              SCOOP_CLOTHES.has(x.word) ||
              EYE_NOUNS.has(x.word)),
        )
    ) {
      // "a pale man", "a tanned surfer" (not "pale blue eyes", not "an olive jacket").
      t.skin = [SKIN_WORDS[word], SKIN_WORDS[word]];
    } else if (BEARD_NOUNS.has(word) || word === "goatee") {
      const mods = modifiers(ts, i);
      const goatee = word === "goatee" || mods.includes("goatee");
      const short = mods.includes("short") || mods.includes("trimmed") || mods.includes("light");
      t.facialHair = goatee ? "goatee" : short && mods.includes("stubble") ? "stubble" : "full";
      t.facialHairColour = hairColourOf(mods.filter((w) => w !== "light" && w !== "dark")) ?? t.facialHairColour;
    } else if (MOUSTACHE_NOUNS.has(word)) {
      if (t.facialHair !== "full" && t.facialHair !== "goatee") t.facialHair = "moustache";
      t.facialHairColour = hairColourOf(modifiers(ts, i)) ?? t.facialHairColour;
    } else if (word === "stubble" || word === "stubbly" || word === "unshaven") {
      if (t.facialHair === null || t.facialHair === "none") t.facialHair = "stubble";
    } else if (word === "cleanshaven" || word === "beardless") {
      t.facialHair = "none";
    } else if (GLASSES_NOUNS.has(word)) {
      const mods = word === "bespectacled" ? [] : modifiers(ts, i);
      const shape =
        mods.includes("round") || mods.includes("circular") || mods.includes("wire")
          ? "round"
          : mods.includes("square") || mods.includes("rectangular") || mods.includes("horn") || mods.includes("thick")
            ? "square"
            : null;
      const frame = mods.includes("tortoiseshell")
        ? "#6b3f22"
        : mods.includes("wire") || mods.includes("metal")
          ? "#8a8d92"
          : colourOf(mods);
      t.glasses = { shape: t.glasses?.shape ?? shape, frame: t.glasses?.frame ?? frame };
    } else if (COLLAR_CLOTHES.has(word) || SCOOP_CLOTHES.has(word)) {
      const colour = colourOf(modifiers(ts, i));
      // The first garment named sets the neckline; the first with a colour sets the colour.
      t.clothing = {
        colour: t.clothing.colour ?? colour,
        style: t.clothing.style ?? (COLLAR_CLOTHES.has(word) ? "collar" : "scoop"),
      };
    } else if (word in NAMED_COLOURS && ["in", "wearing", "dressed"].includes(ts[i - 1]?.word ?? "") && ts[i - 1].clause === ts[i].clause) {
      // "dressed in green", "in navy": the clothes, unless a noun of another family follows.
      if (t.clothing.colour === null && !(HAIR_NOUNS.has(next) || EYE_NOUNS.has(next) || GLASSES_NOUNS.has(next)))
        t.clothing = { ...t.clothing, colour: NAMED_COLOURS[word] };
    }
  }
  if (feminine !== masculine) t.gender = feminine > masculine ? "feminine" : "masculine";
  let best = 0;
  for (const [mood, votes] of moodVotes) {
    if (votes > best) {
      best = votes;
      t.mood = mood;
    }
  }
  return t;
}

/** The look for a description and a seed (any 32-bit integer). */
export function lookFromDescription(description: string, seed: number): FaceLook {
  return lookFromTraits(parseDescription(description), seed);
}
