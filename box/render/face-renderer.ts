// Implements: the renderer of the media path (docs/architecture.md "The media path of one live session"): one ONNX model,
// run by onnxruntime-node on CUDA when present, else CPU, turning a prepared face and one
// frame's parameters into an I420 frame. The I/O contract is in box/render/README.md.
import { readFileSync } from "node:fs";
import * as ort from "onnxruntime-node";
import { createSession, type ExecutionProvider } from "../onnx/session.ts";
import type { FrameParams } from "./frame-params.ts";
import { limitMotion } from "./motion-limits.ts";
import { composeFrame, planCrop, withinEnvelope, type Box, type CropEnvelope, type CropPlan } from "./face-crop.ts";
import { DEFAULT_CROP_ENVELOPE } from "./face-warp/crop-box.ts";
import { IO, PARAM_ORDER, paramsToVector } from "./face-warp/io.ts";
import { loadOrBuildFaceWarp } from "./face-warp/model-file.ts";
import { i420Size } from "./i420.ts";
import { DEFAULT_MOUTH_PALETTE, MOUTH_INPUT_SIZE, mouthVector, sampleMouthPalette } from "./mouth-palette.ts";
import { ANCHOR_COUNT, anchorsToVector, type PreparedFace } from "./prepared-face.ts";

export { cudaProviderInstalled, type ExecutionProvider } from "../onnx/session.ts";

export interface FaceRendererOptions {
  /** A model file honouring the I/O contract (e.g. a learned lip-sync model); default: the built-in face warp. */
  modelPath?: string;
  /** Where the built-in model is cached (generated when missing or stale). */
  builtinModelPath?: string;
  width?: number;
  height?: number;
  /** Intra-op threads; one thread with spinning off is the efficient setting for 25 fps. */
  threads?: number;
  /** Default: CUDA when its provider library is installed, else CPU. */
  executionProviders?: ExecutionProvider[];
  /**
   * Run the model on the box around the head only and keep the rest of the face image (see
   * box/render/README.md "Crop mode"). Default: on for the built-in model, off for a custom
   * `modelPath` (one may opt in when it takes any H/W and changes nothing outside that box).
   */
  crop?: boolean;
}

/** The model's last frame: asked again for the same face and parameters, it is copied (~30 µs, not ~6 ms). */
interface RestFrame {
  face: PreparedFace | null;
  /** The parameters as given (doubles: crop mode reads `breathe` unrounded). */
  params: Float64Array;
  frame: Uint8Array;
  /** Whether `frame` holds a render (false until the first one, and after a failed one). */
  filled: boolean;
}

interface FaceTensors {
  y: ort.Tensor;
  uv: ort.Tensor;
}

/** A face's crop: the plan, its planes and anchors as tensors, and the crop-sized output. */
interface CropState {
  plan: CropPlan;
  inputs: FaceTensors & { anchors: ort.Tensor };
  rendered: Uint8Array;
  outputs: Record<string, ort.Tensor>;
}

export class FaceRenderer {
  private readonly anchorData = new Float32Array(ANCHOR_COUNT);
  private readonly paramData = new Float32Array(PARAM_ORDER.length);
  private readonly mouthData = new Float32Array(MOUTH_INPUT_SIZE);
  private readonly mouths = new WeakMap<PreparedFace, Float32Array>();
  private readonly feeds: Record<string, ort.Tensor> = {};
  private readonly faceTensors = new WeakMap<PreparedFace, FaceTensors>();
  private readonly outTensors = new WeakMap<Uint8Array, Record<string, ort.Tensor>>();
  private readonly crops = new WeakMap<PreparedFace, CropState | null>();
  /** Per face: whether the model at all-zero parameters returned its image unchanged (checked once). */
  private readonly identityAtRest = new WeakMap<PreparedFace, boolean>();
  /** Holds on to one face (the last one rendered) and one frame. */
  private readonly rest: RestFrame;
  private readonly given = new Float64Array(PARAM_ORDER.length);
  private runs = 0;
  private readonly anchorTensor?: ort.Tensor;
  private readonly frame: Uint8Array;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly width: number,
    readonly height: number,
    /** The execution provider the session was created with. */
    readonly executionProvider: ExecutionProvider,
    /** Where the model came from: "builtin" or the custom file's path. */
    readonly modelSource: string,
    /** Whether frames are rendered on the box around the head (crop mode). */
    readonly crop: boolean,
    private readonly envelope: CropEnvelope = DEFAULT_CROP_ENVELOPE,
  ) {
    this.frame = new Uint8Array(i420Size(width, height));
    this.rest = { face: null, params: new Float64Array(PARAM_ORDER.length), frame: new Uint8Array(this.frame.length), filled: false };
    if (session.inputNames.includes(IO.anchors)) this.anchorTensor = new ort.Tensor("float32", this.anchorData, [ANCHOR_COUNT]);
    if (this.anchorTensor) this.feeds[IO.anchors] = this.anchorTensor;
    if (session.inputNames.includes(IO.params)) this.feeds[IO.params] = new ort.Tensor("float32", this.paramData, [PARAM_ORDER.length]);
    if (session.inputNames.includes(IO.mouth)) this.feeds[IO.mouth] = new ort.Tensor("float32", this.mouthData, [MOUTH_INPUT_SIZE]);
  }

  static async load(options: FaceRendererOptions = {}): Promise<FaceRenderer> {
    const width = options.width ?? 512;
    const height = options.height ?? 512;
    if (width % 2 || height % 2) throw new Error(`renderer size must be even, got ${width}x${height}`);
    const bytes = options.modelPath ? new Uint8Array(readFileSync(options.modelPath)) : loadOrBuildFaceWarp(options.builtinModelPath).bytes;
    const { session, provider } = await createSession(bytes, { executionProviders: options.executionProviders, threads: options.threads });
    const anySize = checkContract(session, width, height);
    const crop = options.crop ?? !options.modelPath;
    if (crop && !anySize) throw new Error("crop mode needs a model that takes any H/W (symbolic dims)");
    return new FaceRenderer(session, width, height, provider, options.modelPath ?? "builtin", crop);
  }

  /**
   * Renders one I420 frame (width*height*3/2 bytes). Without `out` the result lives in a
   * buffer owned by the renderer and is overwritten by the next call: copy it to keep it.
   */
  render(face: PreparedFace, params: FrameParams, out?: Uint8Array): Promise<Uint8Array> {
    // A hard photo moves less (motion-limits.ts): every frame of it, whoever drives it.
    const limited = limitMotion(params, face.anchors.motion);
    const run = this.queue.then(() => this.runOnce(face, limited, out ?? this.frame));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runOnce(face: PreparedFace, params: FrameParams, out: Uint8Array): Promise<Uint8Array> {
    if (face.width !== this.width || face.height !== this.height) {
      throw new Error(`face is ${face.width}x${face.height}, renderer is ${this.width}x${this.height}`);
    }
    if (out.length !== this.frame.length) throw new Error(`output buffer must be ${this.frame.length} bytes`);
    paramsToVector(params, this.paramData);
    for (let i = 0; i < PARAM_ORDER.length; i++) this.given[i] = params[PARAM_ORDER[i]];
    if (this.feeds[IO.mouth]) this.mouthData.set(this.mouthFor(face));
    // Nothing moves (a video face's footage at rest, a still face held still): copy, don't run the model.
    const atRest = this.given.every((v) => v === 0);
    if (atRest && this.identityAtRest.get(face)) {
      out.set(face.i420.subarray(0, out.length));
      return out;
    }
    const rest = this.rest;
    const same = rest.face === face && sameValues(rest.params, this.given); // the mouth input is the face's own
    if (same && rest.filled) {
      out.set(rest.frame);
      return out;
    }
    rest.filled = false;
    await this.runModel(face, params, out);
    if (atRest && !this.identityAtRest.has(face)) this.identityAtRest.set(face, sameValues(out, face.i420.subarray(0, out.length)));
    rest.face = face;
    rest.params.set(this.given);
    rest.frame.set(out);
    rest.filled = true;
    return out;
  }

  /** Times the model ran (frames not served from the rest-frame copies). */
  get modelRuns(): number {
    return this.runs;
  }

  private async runModel(face: PreparedFace, params: FrameParams, out: Uint8Array): Promise<void> {
    this.runs++;
    const state = this.crop && withinEnvelope(params, this.envelope) ? this.cropFor(face) : undefined;
    if (state) {
      this.setInputs(state.inputs, state.inputs.anchors);
      await this.session.run(this.feeds, state.outputs);
      // Breathing reaches past the box in the built-in warp only; a custom model leaves the rest as is.
      composeFrame(face, state.plan, this.modelSource === "builtin" ? params.breathe : 0, state.rendered, out);
      return;
    }
    anchorsToVector(face.anchors, this.anchorData);
    this.setInputs(this.tensorsFor(face), this.anchorTensor);
    await this.session.run(this.feeds, this.outputsFor(out));
  }

  /** The box the model runs on for this face in crop mode, or undefined when it runs on the whole frame. */
  cropBox(face: PreparedFace): Box | undefined {
    return this.crop ? this.cropFor(face)?.plan.crop : undefined;
  }

  /** The face's `mouth` input: its palette (else sampled once from its pixels) and its picture's opening. */
  private mouthFor(face: PreparedFace): Float32Array {
    let v = this.mouths.get(face);
    if (!v) {
      const gap = face.anchors.mouth.gap ?? 0;
      v = mouthVector(face.palette ?? sampleMouthPalette(face.i420, face.width, face.height, face.anchors), gap);
      // A NaN would paint nothing sensible; an unusable palette falls back to the defaults.
      if (!v.every(Number.isFinite)) v = mouthVector(DEFAULT_MOUTH_PALETTE, gap);
      this.mouths.set(face, v);
    }
    return v;
  }

  private setInputs(planes: FaceTensors, anchors: ort.Tensor | undefined): void {
    this.feeds[IO.y] = planes.y;
    this.feeds[IO.uv] = planes.uv;
    if (this.anchorTensor && anchors) this.feeds[IO.anchors] = anchors;
  }

  /** Planned once per face (a PreparedFace is treated as immutable): crop planes, anchors, output. */
  private cropFor(face: PreparedFace): CropState | undefined {
    let state = this.crops.get(face);
    if (state === undefined) {
      const plan = planCrop(face, this.envelope);
      state = plan ? cropState(plan) : null;
      this.crops.set(face, state);
    }
    return state ?? undefined;
  }

  private planeTensors(buf: Uint8Array): FaceTensors {
    return planeTensors(buf, this.width, this.height);
  }

  private tensorsFor(face: PreparedFace): FaceTensors {
    let t = this.faceTensors.get(face);
    if (!t) {
      if (face.i420.length < this.frame.length) throw new Error("face image is smaller than an I420 frame");
      t = this.planeTensors(face.i420);
      this.faceTensors.set(face, t);
    }
    return t;
  }

  private outputsFor(out: Uint8Array): Record<string, ort.Tensor> {
    let t = this.outTensors.get(out);
    if (!t) {
      const p = this.planeTensors(out);
      t = { [IO.yOut]: p.y, [IO.uvOut]: p.uv };
      this.outTensors.set(out, t);
    }
    return t;
  }

  async dispose(): Promise<void> {
    await this.queue;
    await this.session.release();
  }
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function planeTensors(buf: Uint8Array, w: number, h: number): FaceTensors {
  return {
    y: new ort.Tensor("uint8", buf.subarray(0, w * h), [1, 1, h, w]),
    uv: new ort.Tensor("uint8", buf.subarray(w * h, i420Size(w, h)), [1, 2, h / 2, w / 2]),
  };
}

function cropState(plan: CropPlan): CropState {
  const w = plan.crop.x1 - plan.crop.x0;
  const h = plan.crop.y1 - plan.crop.y0;
  const rendered = new Uint8Array(i420Size(w, h));
  const out = planeTensors(rendered, w, h);
  return {
    plan,
    inputs: { ...planeTensors(plan.i420, w, h), anchors: new ort.Tensor("float32", anchorsToVector(plan.anchors), [ANCHOR_COUNT]) },
    rendered,
    outputs: { [IO.yOut]: out.y, [IO.uvOut]: out.uv },
  };
}

/**
 * A custom model must speak the documented contract; anchors and params are optional.
 * Returns whether the model takes frames of any size (symbolic H/W).
 */
function checkContract(session: ort.InferenceSession, width: number, height: number): boolean {
  const missing = [
    ...[IO.y, IO.uv].filter((n) => !session.inputNames.includes(n)),
    ...[IO.yOut, IO.uvOut].filter((n) => !session.outputNames.includes(n)),
  ];
  const extra = session.inputNames.filter((n) => !(Object.values(IO) as string[]).includes(n));
  if (missing.length || extra.length) {
    throw new Error(
      `renderer model does not follow the I/O contract (box/render/README.md): ` +
        [missing.length ? `missing ${missing.join(", ")}` : "", extra.length ? `unknown inputs ${extra.join(", ")}` : ""]
          .filter(Boolean)
          .join("; "),
    );
  }
  const meta = session.inputMetadata.find((m) => m.name === IO.y);
  const shape = meta?.isTensor ? meta.shape : [];
  const [hDim, wDim] = [shape[2], shape[3]];
  if ((typeof hDim === "number" && hDim !== height) || (typeof wDim === "number" && wDim !== width)) {
    throw new Error(`renderer model takes ${wDim}x${hDim} frames, asked for ${width}x${height}`);
  }
  return typeof hDim !== "number" && typeof wDim !== "number";
}
