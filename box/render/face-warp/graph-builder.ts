// A small builder over onnx-proto so the face-warp graph reads as maths, not protobuf.
// Values are tensor names; every helper appends one node and returns its output name.
import onnxProto from "onnx-proto";

const { onnx } = onnxProto;
type INode = onnxProto.onnx.INodeProto;
type ITensor = onnxProto.onnx.ITensorProto;
type IAttr = onnxProto.onnx.IAttributeProto;
type IValueInfo = onnxProto.onnx.IValueInfoProto;

export type V = string;
export type Dim = number | string;
export type ElemType = "float" | "uint8" | "int64";

const ELEM: Record<ElemType, number> = { float: 1, uint8: 2, int64: 7 };
const AT = onnx.AttributeProto.AttributeType;

export const attrI = (name: string, i: number): IAttr => ({ name, type: AT.INT, i });
export const attrF = (name: string, f: number): IAttr => ({ name, type: AT.FLOAT, f });
export const attrS = (name: string, s: string): IAttr => ({ name, type: AT.STRING, s: new TextEncoder().encode(s) });
export const attrInts = (name: string, ints: number[]): IAttr => ({ name, type: AT.INTS, ints });

function valueInfo(name: string, elem: ElemType, dims: Dim[]): IValueInfo {
  return {
    name,
    type: {
      tensorType: {
        elemType: ELEM[elem],
        shape: { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

export class GraphBuilder {
  private readonly nodes: INode[] = [];
  private readonly inits: ITensor[] = [];
  private readonly inputs: IValueInfo[] = [];
  private readonly outputs: IValueInfo[] = [];
  private readonly constCache = new Map<string, V>();
  private counter = 0;

  input(name: string, elem: ElemType, dims: Dim[]): V {
    this.inputs.push(valueInfo(name, elem, dims));
    return name;
  }

  /** Marks `value` as a graph output named `name` (an Identity renames it). */
  output(value: V, name: string, elem: ElemType, dims: Dim[]): void {
    this.nodes.push({ opType: "Identity", input: [value], output: [name], name: `out_${name}` });
    this.outputs.push(valueInfo(name, elem, dims));
  }

  op(opType: string, inputs: V[], attrs: IAttr[] = []): V {
    const out = `${opType.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ opType, input: inputs, output: [out], name: out, attribute: attrs });
    return out;
  }

  /** Float32 constant (deduplicated); a plain number is a scalar. */
  c(value: number | number[], dims?: number[]): V {
    const data = typeof value === "number" ? [value] : value;
    const shape = dims ?? (typeof value === "number" ? [] : [data.length]);
    return this.constant("float", new Uint8Array(new Float32Array(data).buffer), shape, `${shape}:${data}`);
  }

  /** Int64 constant (deduplicated), used for shapes, axes and indices. */
  ci(value: number | number[], dims?: number[]): V {
    const data = typeof value === "number" ? [value] : value;
    const shape = dims ?? (typeof value === "number" ? [] : [data.length]);
    return this.constant("int64", new Uint8Array(new BigInt64Array(data.map(BigInt)).buffer), shape, `${shape}:${data}`);
  }

  private constant(elem: ElemType, raw: Uint8Array, dims: number[], key: string): V {
    const cacheKey = `${elem}|${key}`;
    const hit = this.constCache.get(cacheKey);
    if (hit) return hit;
    const name = `c${this.counter++}`;
    this.inits.push({ name, dataType: ELEM[elem], dims, rawData: raw });
    this.constCache.set(cacheKey, name);
    return name;
  }

  get nodeCount(): number {
    return this.nodes.length;
  }

  encode(opts: { name: string; doc: string; metadata: Record<string, string> }): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: "avatar-service gen-face-warp",
      producerVersion: "1",
      docString: opts.doc,
      opsetImport: [{ domain: "", version: 17 }],
      metadataProps: Object.entries(opts.metadata).map(([key, value]) => ({ key, value })),
      graph: {
        name: opts.name,
        node: this.nodes,
        initializer: this.inits,
        input: this.inputs,
        output: this.outputs,
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

/** Elementwise maths on top of the builder; broadcasting follows ONNX (numpy) rules. */
export class Maths {
  constructor(readonly g: GraphBuilder) {}
  private v(x: V | number): V {
    return typeof x === "number" ? this.g.c(x) : x;
  }
  add = (a: V | number, b: V | number) => this.g.op("Add", [this.v(a), this.v(b)]);
  sub = (a: V | number, b: V | number) => this.g.op("Sub", [this.v(a), this.v(b)]);
  mul = (a: V | number, b: V | number) => this.g.op("Mul", [this.v(a), this.v(b)]);
  div = (a: V | number, b: V | number) => this.g.op("Div", [this.v(a), this.v(b)]);
  min = (a: V | number, b: V | number) => this.g.op("Min", [this.v(a), this.v(b)]);
  max = (a: V | number, b: V | number) => this.g.op("Max", [this.v(a), this.v(b)]);
  pow = (a: V | number, b: V | number) => this.g.op("Pow", [this.v(a), this.v(b)]);
  neg = (a: V) => this.g.op("Neg", [a]);
  abs = (a: V) => this.g.op("Abs", [a]);
  exp = (a: V) => this.g.op("Exp", [a]);
  sqrt = (a: V) => this.g.op("Sqrt", [a]);
  floor = (a: V) => this.g.op("Floor", [a]);
  ceil = (a: V) => this.g.op("Ceil", [a]);
  sigmoid = (a: V) => this.g.op("Sigmoid", [a]);
  cos = (a: V) => this.g.op("Cos", [a]);
  sin = (a: V) => this.g.op("Sin", [a]);
  relu = (a: V) => this.g.op("Relu", [a]);
  clip = (a: V, lo: V | number, hi: V | number) => this.g.op("Clip", [a, this.v(lo), this.v(hi)]);
  clamp01 = (a: V) => this.clip(a, 0, 1);
  /** Multiply-add a*b + c in two nodes. */
  fma = (a: V | number, b: V | number, c: V | number) => this.add(this.mul(a, b), c);
  /** Hermite smoothstep from 0 at e0 to 1 at e1 (e1 may be below e0 for a falling edge). */
  smoothstep = (e0: V | number, e1: V | number, x: V) => {
    const t = this.clamp01(this.div(this.sub(x, e0), this.sub(e1, e0)));
    return this.mul(this.mul(t, t), this.sub(3, this.mul(t, 2)));
  };
  /** exp(-((x - c) / s)^2): a soft bump. */
  gauss = (x: V, c: V | number, s: V | number) => {
    const u = this.div(this.sub(x, c), s);
    return this.exp(this.neg(this.mul(u, u)));
  };
  /** Scalar `i` of a 1-D float tensor. */
  at = (vec: V, i: number) => this.g.op("Gather", [vec, this.g.ci(i)], [attrI("axis", 0)]);
  unsqueeze = (a: V, axes: number[]) => this.g.op("Unsqueeze", [a, this.g.ci(axes)]);
  reshape = (a: V, shape: V) => this.g.op("Reshape", [a, shape]);
  concat = (xs: V[], axis: number) => this.g.op("Concat", xs, [attrI("axis", axis)]);
  slice = (a: V, starts: V, ends: V, axes: number[]) => this.g.op("Slice", [a, starts, ends, this.g.ci(axes)]);
  cast = (a: V, to: ElemType) => this.g.op("Cast", [a], [attrI("to", ELEM[to])]);
}
