// Colours a described face is drawn with: skin tones, hair, eyes, clothes and backgrounds, and the
// small colour arithmetic (mix, lighten, darken) that derives shades from them.

export type Rgb = [number, number, number];

export function hexToRgb(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHex([r, g, b]: Rgb): string {
  return (
    "#" +
    [r, g, b]
      .map((v) =>
        Math.max(0, Math.min(255, Math.round(v)))
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")
  );
}

/** `a` moved towards `b` by `t` (0..1). */
export function mix(a: string, b: string, t: number): string {
  const [x, y] = [hexToRgb(a), hexToRgb(b)];
  return rgbToHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

export const lighten = (c: string, t: number) => mix(c, "#ffffff", t);
export const darken = (c: string, t: number) => mix(c, "#000000", t);

export interface SkinTone {
  name: string;
  skin: string;
  shade: string;
  blush: string;
  /** Natural lip colour (upper); the lower lip is a touch lighter. */
  lip: string;
}

/** Lightest to deepest. */
export const SKIN_TONES: readonly SkinTone[] = [
  { name: "fair", skin: "#f7d7c2", shade: "#daa98d", blush: "#f0958a", lip: "#c8727a" },
  { name: "light", skin: "#f3c9a8", shade: "#d49a7a", blush: "#ef8f80", lip: "#c0606a" },
  { name: "light-medium", skin: "#e8b790", shade: "#c48866", blush: "#e58874", lip: "#b55e5e" },
  { name: "olive", skin: "#d6a77c", shade: "#af7c56", blush: "#d57f66", lip: "#a85a52" },
  { name: "tan", skin: "#c68c60", shade: "#9e6640", blush: "#c46d52", lip: "#97524a" },
  { name: "brown", skin: "#b47a55", shade: "#8c5639", blush: "#b5614a", lip: "#8a4740" },
  { name: "dark brown", skin: "#8a5538", shade: "#643a24", blush: "#8f4a36", lip: "#6e3730" },
  { name: "deep", skin: "#643b26", shade: "#452718", blush: "#6e3626", lip: "#4f2520" },
];

export interface HairColour {
  hair: string;
  light: string;
}

export const HAIR_COLOURS: Readonly<Record<string, HairColour>> = {
  black: { hair: "#17120f", light: "#3d3129" },
  "dark brown": { hair: "#2e1f17", light: "#5a3d2c" },
  brown: { hair: "#4a2f1f", light: "#7a5236" },
  "light brown": { hair: "#6d4c31", light: "#a07850" },
  chestnut: { hair: "#5c2f1b", light: "#8e4d2c" },
  auburn: { hair: "#6e2a17", light: "#a4472a" },
  red: { hair: "#9a3a1a", light: "#d0652f" },
  "strawberry blonde": { hair: "#b8744a", light: "#dca07a" },
  blonde: { hair: "#b58b4c", light: "#e2c07f" },
  sandy: { hair: "#9c7a4f", light: "#c9a673" },
  platinum: { hair: "#cfc4ad", light: "#f3ecdd" },
  "salt and pepper": { hair: "#55524f", light: "#b1aea9" },
  grey: { hair: "#8a8a8c", light: "#c9c9cb" },
  white: { hair: "#d4d2cd", light: "#f6f5f1" },
};

export const EYE_COLOURS: Readonly<Record<string, string>> = {
  blue: "#4a78a8",
  "light blue": "#7aa6cf",
  green: "#4f8a5f",
  hazel: "#7a6a35",
  brown: "#5b3a22",
  "dark brown": "#3b2618",
  grey: "#6f7f8a",
  amber: "#a8742a",
};

/** Clothing (and dyed hair) colours by name. */
export const NAMED_COLOURS: Readonly<Record<string, string>> = {
  red: "#b8312f",
  crimson: "#a4161a",
  scarlet: "#c0261f",
  maroon: "#6d1a2a",
  burgundy: "#7a1f35",
  wine: "#722f37",
  orange: "#d9762b",
  rust: "#a3471f",
  terracotta: "#b8593a",
  coral: "#e07a5f",
  peach: "#f0b08a",
  salmon: "#e8907a",
  yellow: "#e0b53a",
  mustard: "#c99a2e",
  gold: "#c9a23a",
  golden: "#c9a23a",
  green: "#3f7d4a",
  emerald: "#2b7a58",
  olive: "#6b6b32",
  sage: "#8aa184",
  forest: "#2e5a36",
  lime: "#8cc04a",
  mint: "#9fd6b9",
  teal: "#2f8589",
  turquoise: "#2fa7a4",
  aqua: "#4fc0c0",
  cyan: "#3aa9c4",
  blue: "#2f5fa8",
  navy: "#23314f",
  cobalt: "#1f4fa0",
  royal: "#2a4fb0",
  sky: "#7fb3e0",
  denim: "#4a6d96",
  indigo: "#3b3f8f",
  purple: "#6b3f8f",
  violet: "#7d4fb0",
  lavender: "#a899cf",
  lilac: "#b8a2d0",
  plum: "#6e3b5e",
  mauve: "#a6798f",
  pink: "#e08aa8",
  magenta: "#b83280",
  fuchsia: "#c2307f",
  rose: "#d8788c",
  white: "#f1f0ec",
  cream: "#efe6cf",
  ivory: "#f2ecdc",
  beige: "#d8c6a6",
  khaki: "#b5a77a",
  tan: "#c19a6b",
  camel: "#b98d5a",
  brown: "#6f4a30",
  chocolate: "#4e3222",
  grey: "#7d8087",
  charcoal: "#3d4046",
  silver: "#b8bcc2",
  black: "#232427",
};

/** Soft studio backgrounds: centre and rim of the radial gradient. */
export const BACKGROUNDS: readonly [string, string][] = [
  ["#e3eef6", "#8fb1cc"],
  ["#f6ead6", "#cfa97c"],
  ["#eef0e2", "#a9b89a"],
  ["#efe6ef", "#b69bb5"],
  ["#e9ecef", "#98a2ad"],
  ["#f4e4dc", "#c99886"],
];

/** Clothes when the description names no colour. */
export const DEFAULT_CLOTHES: readonly string[] = ["#2f8589", "#34496f", "#d19a2a", "#7a3b4f", "#4f6b3a", "#5b5f6b", "#8a5a3c", "#3f5fa0"];
