// The constants and functions `calculate` knows, and how its answers are written.
import { ToolError } from "./types.ts";

export const CONSTANTS: Record<string, number> = { pi: Math.PI, π: Math.PI, e: Math.E, tau: 2 * Math.PI };

// Trig of a rounded pi leaves ~1e-16 residue; snap it so sin(pi) reads as 0.
const snap = (x: number): number => (Math.abs(x) < 1e-15 ? 0 : x);

function positive(name: string, x: number): number {
  if (x <= 0) throw new ToolError(`${name} is only defined for positive numbers.`);
  return x;
}

export const FUNCTIONS: Record<string, { min: number; max: number; fn: (...a: number[]) => number }> = {
  sqrt: {
    min: 1,
    max: 1,
    fn: (x) => {
      if (x < 0) throw new ToolError("The square root of a negative number is not a real number.");
      return Math.sqrt(x);
    },
  },
  cbrt: { min: 1, max: 1, fn: Math.cbrt },
  abs: { min: 1, max: 1, fn: Math.abs },
  round: {
    min: 1,
    max: 2,
    fn: (x, digits = 0) => {
      if (!Number.isInteger(digits) || digits < 0 || digits > 12) throw new ToolError("round() takes 0 to 12 decimal places.");
      const f = 10 ** digits;
      // toPrecision first so 1.005 * 100 (= 100.49999...) rounds as the written 100.5
      return (Math.sign(x) * Math.round(Number((Math.abs(x) * f).toPrecision(15)))) / f;
    },
  },
  floor: { min: 1, max: 1, fn: Math.floor },
  ceil: { min: 1, max: 1, fn: Math.ceil },
  trunc: { min: 1, max: 1, fn: Math.trunc },
  sin: { min: 1, max: 1, fn: (x) => snap(Math.sin(x)) },
  cos: { min: 1, max: 1, fn: (x) => snap(Math.cos(x)) },
  tan: { min: 1, max: 1, fn: (x) => snap(Math.tan(x)) },
  asin: { min: 1, max: 1, fn: Math.asin },
  acos: { min: 1, max: 1, fn: Math.acos },
  atan: { min: 1, max: 1, fn: Math.atan },
  log: {
    min: 1,
    max: 2,
    fn: (x, base = 10) => Math.log(positive("log", x)) / Math.log(positive("A logarithm base", base)),
  },
  log10: { min: 1, max: 1, fn: (x) => Math.log10(positive("log10", x)) },
  log2: { min: 1, max: 1, fn: (x) => Math.log2(positive("log2", x)) },
  ln: { min: 1, max: 1, fn: (x) => Math.log(positive("ln", x)) },
  exp: { min: 1, max: 1, fn: Math.exp },
  pow: { min: 2, max: 2, fn: (x, y) => x ** y },
  min: { min: 1, max: 50, fn: Math.min },
  max: { min: 1, max: 50, fn: Math.max },
};

export function factorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new ToolError("Factorial is only defined for whole numbers 0 or above.");
  if (n > 170) throw new ToolError("That factorial is too large to represent.");
  let r = 1;
  for (let k = 2; k <= n; k++) r *= k;
  return r;
}

/** 12 significant digits; exact for safe integers; exponent form for very large or tiny values. */
export function formatNumber(n: number): string {
  if (n === 0) return "0";
  if (Number.isSafeInteger(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1e15 || abs < 1e-9) {
    const [mantissa, exp] = n.toExponential(11).split("e");
    return `${mantissa.replace(/\.?0+$/, "")}e${exp}`;
  }
  return String(Number(n.toPrecision(12)));
}
