import { describe, expect, it } from "vitest";
import { createCalculate } from "./calculate.ts";
import { formatNumber } from "./calculate-functions.ts";
import { evaluateExpression, MAX_EXPRESSION_LENGTH } from "./calculate-parser.ts";
import { ToolArgsError, ToolError } from "./types.ts";

const ctx = { timeZone: "UTC", signal: new AbortController().signal };
const calc = (expression: unknown) => createCalculate().run({ expression }, ctx);

describe("calculate: evaluation", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["100 / 10 / 5", 2],
    ["2 ^ 3 ^ 2", 512],
    ["2 ** 10", 1024],
    ["-2 ^ 2", -4],
    ["(-2) ^ 2", 4],
    ["2 ^ -1", 0.5],
    ["--3", 3],
    ["-(-3)", 3],
    ["+5", 5],
    ["7 % 3", 1],
    ["1.5e3 + .5", 1500.5],
    ["2.5E-1", 0.25],
    ["sqrt(16) + abs(-3)", 7],
    ["round(2.5)", 3],
    ["round(-2.5)", -3],
    ["round(1.005, 2)", 1.01],
    ["floor(2.7) + ceil(2.1)", 5],
    ["min(4, 2, 8) + max(1, 9)", 11],
    ["log(1000)", 3],
    ["log(8, 2)", 3],
    ["ln(e)", 1],
    ["exp(0)", 1],
    ["sin(pi)", 0],
    ["cos(0)", 1],
    ["tan(0)", 0],
    ["2pi / pi", 2],
    ["3(4 + 1)", 15],
    ["(1 + 1)(2 + 2)", 8],
    ["15% of 80", 12],
    ["50%", 0.5],
    ["200 * 10%", 20],
    ["5!", 120],
    ["0!", 1],
    ["6 × 7 ÷ 2", 21],
    ["PI * 0 + SQRT(9)", 3],
    ["pow(2, 8)", 256],
  ])("%s = %d", (src, expected) => {
    expect(evaluateExpression(src)).toBeCloseTo(expected, 12);
  });

  it("returns the formatted number as text", async () => {
    expect(await calc("0.1 + 0.2")).toBe("0.3");
    expect(await calc("1 / 3")).toBe("0.333333333333");
    expect(await calc("2 ^ 50")).toBe("1125899906842624");
    expect(await calc("-0 * 5")).toBe("0");
  });

  it("formats very large and very small values in exponent form with 12 significant digits", () => {
    expect(formatNumber(2 ** 70)).toBe("1.18059162072e+21");
    expect(formatNumber(1.23e-12)).toBe("1.23e-12");
    expect(formatNumber(123456.7890123456)).toBe("123456.789012");
  });
});

describe("calculate: refusals", () => {
  it.each([
    ["1 / 0", /Division by zero/],
    ["5 % 0", /dividing by zero/],
    ["sqrt(-1)", /negative/],
    ["ln(0)", /positive/],
    ["log(-5)", /positive/],
    ["10 ^ 400", /not a finite number/],
    ["171!", /too large/],
    ["2.5!", /whole numbers/],
    ["round(2, 99)", /decimal places/],
  ])("%s is a readable maths error", (src, message) => {
    expect(() => evaluateExpression(src)).toThrow(ToolError);
    expect(() => evaluateExpression(src)).toThrow(message);
  });

  it.each([
    ["", /empty/],
    ["1 +", /ends too early/],
    ["(1 + 2", /never closed/],
    ["1 + 2)", /unexpected "\)" at position 6/],
    ["2 3", /unexpected number 3/],
    ["1,000 + 1", /thousands separators/],
    ["foo(2)", /unknown function "foo"/],
    ["x + 1", /unknown name "x"/],
    ["sqrt 4", /needs parentheses/],
    ["sqrt(1, 2)", /takes 1 argument/],
    ["max()", /takes 1 to 50 arguments/],
    ["1 $ 2", /unexpected character "\$"/],
    ["process.exit(1)", /unexpected character "\."/],
    ["constructor(1)", /unknown function "constructor"/],
    ["toString", /unknown name "tostring"/],
    ["constructor.constructor('return 1')()", /unknown|unexpected/],
    ["__proto__", /unknown name/],
    ["1 + 2; 3", /unexpected character ";"/],
  ])("%j is an argument error", (src, message) => {
    expect(() => evaluateExpression(src)).toThrow(ToolArgsError);
    expect(() => evaluateExpression(src)).toThrow(message);
  });

  it("limits the input length", () => {
    const long = "1+".repeat(MAX_EXPRESSION_LENGTH) + "1";
    expect(() => evaluateExpression(long)).toThrow(/too long/);
  });

  it("limits the nesting depth instead of overflowing the stack", () => {
    expect(() => evaluateExpression("(".repeat(200) + "1" + ")".repeat(200))).toThrow(/nested too deeply/);
    expect(() => evaluateExpression("-".repeat(300) + "1")).toThrow(/nested too deeply/);
    expect(() => evaluateExpression("2^".repeat(150) + "1")).toThrow(/nested too deeply/);
    expect(evaluateExpression("(".repeat(30) + "1" + ")".repeat(30))).toBe(1);
  });

  it.each([[undefined], [null], [42], [["1+1"]], [{}], ["   "]])(
    "a missing or wrong-typed expression (%j) is an argument error",
    async (value) => {
      await expect(calc(value)).rejects.toThrow(ToolArgsError);
    },
  );

  it("accepts arguments as a JSON string and refuses other text", async () => {
    const tool = createCalculate();
    expect(await tool.run('{"expression":"6*7"}', ctx)).toBe("42");
    await expect(tool.run("6*7", ctx)).rejects.toThrow(/JSON object/);
    await expect(tool.run(null, ctx)).rejects.toThrow(ToolArgsError);
  });

  it("never evaluates code: the source has no eval or Function", async () => {
    const { readFile } = await import("node:fs/promises");
    const src = (
      await Promise.all(["./calculate-parser.ts", "./calculate-functions.ts"].map((f) => readFile(new URL(f, import.meta.url), "utf8")))
    ).join("\n");
    expect(src).not.toMatch(/\beval\s*\(|new Function|Function\s*\(/);
  });
});
