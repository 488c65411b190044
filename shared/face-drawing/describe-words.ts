// The words the description reader knows, by family. Lower case; compounds are joined before lookup
// ("middle-aged" is `middleaged`, "t-shirt" `tshirt`: see normalise() in describe.ts).
import type { HairStyle, Mood } from "./svg-face.ts";

export const STOP = new Set(["a", "an", "the", "with", "and", "wearing", "wears", "has", "have", "having", "in", "his", "her", "their", "is", "who", "of", "on", "plus", "also", "some", "that", "to", "for", "at", "by", "as", "or", "but", "he", "she", "they", "sporting", "dressed"]);
export const NEGATIONS = new Set(["no", "not", "without", "never", "non"]);

export const FEMININE = new Set(["woman", "women", "female", "girl", "lady", "she", "her", "hers", "mother", "mom", "mum", "grandmother", "grandma", "granny", "wife", "daughter", "sister", "aunt", "businesswoman", "actress", "queen", "madam", "gal"]);
export const MASCULINE = new Set(["man", "men", "male", "guy", "boy", "gentleman", "he", "his", "him", "father", "dad", "grandfather", "grandpa", "husband", "son", "brother", "uncle", "businessman", "actor", "king", "sir", "bloke", "lad"]);

export const AGE_WORDS: Record<string, number> = {
  teen: 17, teenager: 17, teenage: 17, adolescent: 16, student: 21, young: 24, youthful: 25, twentysomething: 26,
  middleaged: 48, mature: 52, older: 64, old: 68, retired: 68, senior: 70, aged: 72, elderly: 76, grandmother: 70,
  grandfather: 70, grandma: 72, grandpa: 72, granny: 75,
};
export const DECADES: Record<string, number> = { twenties: 25, thirties: 35, forties: 45, fifties: 55, sixties: 65, seventies: 75, eighties: 84, nineties: 92 };

export const MOODS: Record<string, Mood> = {
  happy: "smile", cheerful: "smile", smiling: "smile", smile: "smile", smiles: "smile", friendly: "smile", warm: "smile",
  joyful: "smile", jolly: "smile", grinning: "smile", kind: "smile", kindly: "smile", welcoming: "smile", approachable: "smile",
  upbeat: "smile", bubbly: "smile", playful: "smile", optimistic: "smile", laughing: "smile", sunny: "smile", merry: "smile",
  serious: "serious", stern: "serious", strict: "serious", severe: "serious", grumpy: "serious", stoic: "serious",
  solemn: "serious", nononsense: "serious", determined: "serious", intense: "serious", frowning: "serious", focused: "serious",
  calm: "calm", relaxed: "calm", gentle: "calm", serene: "calm", peaceful: "calm", softspoken: "calm", quiet: "calm",
  thoughtful: "calm", wise: "calm", patient: "calm", composed: "calm", tranquil: "calm", mellow: "calm",
  sad: "sad", melancholy: "sad", melancholic: "sad", tired: "sad", weary: "sad", gloomy: "sad", worried: "sad", sorrowful: "sad",
};

export const HAIR_NOUNS = new Set(["hair", "haired", "hairdo", "hairstyle", "locks", "curls", "afro", "ponytail", "bun", "braids", "dreadlocks", "dreads", "mane", "bob", "fringe", "bangs"]);
export const EYE_NOUNS = new Set(["eyes", "eyed", "eye"]);
export const SKIN_NOUNS = new Set(["skin", "skinned", "complexion", "complexioned"]);
export const BEARD_NOUNS = new Set(["beard", "bearded", "beards"]);
export const MOUSTACHE_NOUNS = new Set(["moustache", "mustache", "moustached", "mustached", "tache"]);
export const GLASSES_NOUNS = new Set(["glasses", "spectacles", "eyeglasses", "specs", "bespectacled", "sunglasses", "frames"]);
export const PERSON_NOUNS = new Set(["woman", "man", "person", "girl", "boy", "guy", "lady", "gentleman", "male", "female", "teenager", "grandmother", "grandfather", "grandma", "grandpa", "doctor", "nurse", "teacher", "student", "professor", "businessman", "businesswoman", "people"]);
/** "a Black woman", "a white man", "a brown girl": a range of tones the seed picks from. */
export const PERSON_SKIN: Record<string, [number, number]> = { black: [5, 7], brown: [4, 6], white: [0, 2] };
export const COLLAR_CLOTHES = new Set(["shirt", "jacket", "blazer", "suit", "coat", "polo", "uniform", "cardigan", "overcoat", "trenchcoat", "buttondown", "oxford", "waistcoat", "tuxedo", "labcoat"]);
export const SCOOP_CLOTHES = new Set(["tshirt", "tee", "sweater", "jumper", "hoodie", "dress", "blouse", "top", "turtleneck", "sweatshirt", "tunic", "vest", "jersey", "scrubs", "tanktop", "pullover", "gown", "kimono", "sari"]);

/** Skin words and the tone index they name. */
export const SKIN_WORDS: Record<string, number> = {
  porcelain: 0, pale: 0, fair: 0, light: 1, peach: 1, golden: 2, beige: 2, olive: 3, tan: 4, tanned: 4, medium: 4, caramel: 4,
  honey: 3, bronze: 4, brown: 5, dark: 6, deep: 7, ebony: 7, black: 7, chocolate: 6,
};

/** Words that name a hair colour, beside the colour names of HAIR_COLOURS. */
export const HAIR_WORDS: Record<string, string> = {
  black: "black", jet: "black", raven: "black", dark: "dark brown", brunette: "brown", brown: "brown", chestnut: "chestnut",
  auburn: "auburn", red: "red", ginger: "red", copper: "red", redhead: "red", blonde: "blonde", blond: "blonde", golden: "blonde",
  fair: "blonde", yellow: "blonde", sandy: "sandy", platinum: "platinum", grey: "grey", gray: "grey", silver: "grey",
  greying: "salt and pepper", graying: "salt and pepper", white: "white", snowy: "white", saltpepper: "salt and pepper", light: "light brown",
};
export const EYE_WORDS: Record<string, string> = { blue: "blue", green: "green", hazel: "hazel", brown: "brown", grey: "grey", gray: "grey", amber: "amber", dark: "dark brown", black: "dark brown", emerald: "green" };

export const HAIR_STYLE_WORDS: Record<string, HairStyle> = {
  long: "long", shoulderlength: "long", flowing: "long", wavy: "long", straight: "long", braids: "long", braided: "long",
  dreadlocks: "long", dreads: "long", short: "short", cropped: "short", buzz: "short", buzzcut: "short", crewcut: "short",
  spiky: "short", slicked: "short", bob: "long", bun: "bun", ponytail: "bun", updo: "bun", tied: "bun", curly: "curly",
  curls: "curly", afro: "curly", coily: "curly", frizzy: "curly", kinky: "curly", ringlets: "curly", bald: "bald", balding: "bald",
  shaved: "bald", shaven: "bald",
};
