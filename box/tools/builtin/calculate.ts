// Implements: Built-in tools — `calculate` (arithmetic expression; viewer label: working out the answer).
import { BUILTIN_LABELS } from "./labels.ts";
import { argsObject, requiredString } from "./args.ts";
import { formatNumber } from "./calculate-functions.ts";
import { evaluateExpression, MAX_EXPRESSION_LENGTH } from "./calculate-parser.ts";
import type { BuiltinTool } from "./types.ts";

export function createCalculate(): BuiltinTool {
  return {
    name: "calculate",
    label: BUILTIN_LABELS.calculate,
    description:
      "Evaluate an arithmetic expression exactly instead of doing mental maths. Supports + - * / % ^, brackets, " +
      'percentages ("15% of 80"), factorial (5!), constants pi and e, and functions sqrt, cbrt, abs, round(x, places), ' +
      "floor, ceil, trunc, sin, cos, tan, asin, acos, atan (radians), log (base 10, or log(x, base)), log2, ln, exp, pow, min, max.",
    parameters: {
      type: "object",
      properties: {
        expression: { type: "string", description: 'The expression, e.g. "(12.5 * 4) / 3" or "sqrt(2) ^ 2".' },
      },
      required: ["expression"],
    },
    async run(args) {
      const expression = requiredString(argsObject(args, "calculate"), "expression", MAX_EXPRESSION_LENGTH);
      return formatNumber(evaluateExpression(expression));
    },
  };
}
