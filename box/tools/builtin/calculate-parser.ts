// A recursive-descent parser and evaluator for arithmetic: the model's text is never handed to
// eval/Function, so an expression can only compute, never run code.
import { CONSTANTS, factorial, FUNCTIONS } from "./calculate-functions.ts";
import { ToolArgsError, ToolError } from "./types.ts";

export const MAX_EXPRESSION_LENGTH = 500;
/** Bounds parser recursion: each bracket, call, sign or power counts a level (about 45 nested brackets). */
export const MAX_NESTING_DEPTH = 100;

type Tok =
  | { t: "num"; v: number; pos: number }
  | { t: "id"; v: string; pos: number }
  | { t: "op"; v: string; pos: number }
  | { t: "end"; pos: number };

type Node =
  | { k: "num"; v: number }
  | { k: "neg"; a: Node }
  | { k: "bin"; op: string; a: Node; b: Node }
  | { k: "pct"; a: Node }
  | { k: "fact"; a: Node }
  | { k: "call"; name: string; args: Node[] };

const OP_ALIASES: Record<string, string> = { "×": "*", "·": "*", "÷": "/", "−": "-", "–": "-", "**": "^" };
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const IDENT = /^[A-Za-z_π][A-Za-z0-9_]*/;

function syntax(message: string): ToolArgsError {
  return new ToolArgsError(`Could not read the expression: ${message}.`);
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const num = NUMBER.exec(rest);
    if (num) {
      toks.push({ t: "num", v: Number(num[0]), pos: i + 1 });
      i += num[0].length;
      continue;
    }
    const id = IDENT.exec(rest);
    if (id) {
      toks.push({ t: "id", v: id[0].toLowerCase(), pos: i + 1 });
      i += id[0].length;
      continue;
    }
    const two = rest.slice(0, 2);
    if (two === "**") {
      toks.push({ t: "op", v: "^", pos: i + 1 });
      i += 2;
      continue;
    }
    const ch = rest[0];
    const op = Object.hasOwn(OP_ALIASES, ch) ? OP_ALIASES[ch] : ch;
    if ("+-*/%^(),!".includes(op)) {
      toks.push({ t: "op", v: op, pos: i + 1 });
      i += 1;
      continue;
    }
    throw syntax(`unexpected character "${ch}" at position ${i + 1}`);
  }
  toks.push({ t: "end", pos: src.length + 1 });
  return toks;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly toks: Tok[]) {}

  parse(): Node {
    if (this.peek().t === "end") throw syntax("it is empty");
    const node = this.expr();
    const tok = this.peek();
    if (tok.t !== "end") throw unexpected(tok);
    return node;
  }

  private peek(offset = 0): Tok {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)];
  }

  private isOp(v: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return tok.t === "op" && tok.v === v;
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING_DEPTH) throw syntax(`it is nested too deeply (at most ${MAX_NESTING_DEPTH} levels)`);
  }

  private expr(): Node {
    let node = this.term();
    while (this.isOp("+") || this.isOp("-")) {
      const op = (this.toks[this.i++] as { v: string }).v;
      node = { k: "bin", op, a: node, b: this.term() };
    }
    return node;
  }

  private term(): Node {
    let node = this.unary();
    for (;;) {
      const tok = this.peek();
      if (tok.t === "op" && (tok.v === "*" || tok.v === "/" || tok.v === "%")) {
        this.i++;
        node = { k: "bin", op: tok.v, a: node, b: this.unary() };
      } else if ((tok.t === "op" && tok.v === "(") || (tok.t === "id" && tok.v !== "of")) {
        node = { k: "bin", op: "*", a: node, b: this.power() }; // implicit: 2pi, 3(4+1)
      } else {
        return node;
      }
    }
  }

  private unary(): Node {
    this.enter();
    let node: Node;
    if (this.isOp("-")) {
      this.i++;
      node = { k: "neg", a: this.unary() };
    } else if (this.isOp("+")) {
      this.i++;
      node = this.unary();
    } else {
      node = this.power();
    }
    this.depth--;
    return node;
  }

  private power(): Node {
    const base = this.postfix();
    if (!this.isOp("^")) return base;
    this.i++;
    return { k: "bin", op: "^", a: base, b: this.unary() }; // right-associative: 2^3^2 = 2^9
  }

  private postfix(): Node {
    let node = this.primary();
    for (;;) {
      if (this.isOp("!")) {
        this.i++;
        node = { k: "fact", a: node };
      } else if (this.isOp("%") && this.isPercent()) {
        this.i++;
        node = { k: "pct", a: node };
        const of = this.peek();
        if (of.t === "id" && of.v === "of") {
          this.i++;
          node = { k: "bin", op: "*", a: node, b: this.unary() }; // 15% of 80
        }
      } else {
        return node;
      }
    }
  }

  /** `%` is modulo when an operand follows it ("10 % 3"), otherwise percent ("15%", "15% of 80"). */
  private isPercent(): boolean {
    const next = this.peek(1);
    if (next.t === "num") return false;
    if (next.t === "id") return next.v === "of";
    return !(next.t === "op" && next.v === "(");
  }

  private primary(): Node {
    const tok = this.peek();
    if (tok.t === "num") {
      this.i++;
      return { k: "num", v: tok.v };
    }
    if (tok.t === "op" && tok.v === "(") {
      this.i++;
      this.enter();
      const inner = this.expr();
      this.expect(")", tok.pos);
      this.depth--;
      return inner;
    }
    if (tok.t === "id") {
      this.i++;
      if (this.isOp("(")) return this.call(tok.v, tok.pos);
      if (Object.hasOwn(CONSTANTS, tok.v)) return { k: "num", v: CONSTANTS[tok.v] };
      if (Object.hasOwn(FUNCTIONS, tok.v)) throw syntax(`${tok.v} needs parentheses, like ${tok.v}(2)`);
      throw syntax(`unknown name "${tok.v}" at position ${tok.pos}`);
    }
    if (tok.t === "end") throw syntax("it ends too early");
    throw unexpected(tok);
  }

  private call(name: string, pos: number): Node {
    const spec = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    if (!spec) throw syntax(`unknown function "${name}" at position ${pos}`);
    this.i++; // "("
    this.enter();
    const args: Node[] = [];
    if (!this.isOp(")")) {
      args.push(this.expr());
      while (this.isOp(",")) {
        this.i++;
        args.push(this.expr());
      }
    }
    this.expect(")", pos);
    this.depth--;
    if (args.length < spec.min || args.length > spec.max) {
      const want = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
      throw syntax(`${name}() takes ${want} argument${spec.max === 1 ? "" : "s"}, got ${args.length}`);
    }
    return { k: "call", name, args };
  }

  private expect(op: string, openedAt: number): void {
    if (this.isOp(op)) {
      this.i++;
      return;
    }
    const tok = this.peek();
    if (tok.t === "end") throw syntax(`the bracket opened at position ${openedAt} is never closed`);
    throw syntax(`expected "${op}" but found ${describe(tok)} at position ${tok.pos}`);
  }
}

function unexpected(tok: Tok): ToolArgsError {
  const hint = tok.t === "op" && tok.v === "," ? " (write numbers without thousands separators)" : "";
  return syntax(`unexpected ${describe(tok)} at position ${tok.pos}${hint}`);
}

function describe(tok: Tok): string {
  if (tok.t === "end") return "the end";
  if (tok.t === "num") return `number ${tok.v}`;
  return `"${tok.v}"`;
}

function evaluate(node: Node): number {
  switch (node.k) {
    case "num":
      return node.v;
    case "neg":
      return -evaluate(node.a);
    case "pct":
      return evaluate(node.a) / 100;
    case "fact":
      return factorial(evaluate(node.a));
    case "call":
      return FUNCTIONS[node.name].fn(...node.args.map(evaluate));
    case "bin": {
      const a = evaluate(node.a);
      const b = evaluate(node.b);
      switch (node.op) {
        case "+":
          return a + b;
        case "-":
          return a - b;
        case "*":
          return a * b;
        case "/":
          if (b === 0) throw new ToolError("Division by zero is undefined.");
          return a / b;
        case "%":
          if (b === 0) throw new ToolError("The remainder after dividing by zero is undefined.");
          return a % b;
        default:
          return a ** b;
      }
    }
  }
}

/** Parses then evaluates; ToolArgsError for unreadable input, ToolError for maths that has no finite answer. */
export function evaluateExpression(src: string): number {
  if (src.length > MAX_EXPRESSION_LENGTH) {
    throw new ToolArgsError(`The expression is too long (at most ${MAX_EXPRESSION_LENGTH} characters).`);
  }
  const value = evaluate(new Parser(tokenize(src)).parse());
  if (!Number.isFinite(value)) throw new ToolError("The result is not a finite number (too large, or undefined).");
  return value;
}
