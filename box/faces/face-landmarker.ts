// Implements: face detection and landmarks for own faces (issue 10 item 2; docs/architecture.md "Face landmarks").
// MediaPipe BlazeFace + FaceMesh (468 points) + Iris (478 with the irises), the graph models
// shipped in @vladmandic/human's models/ folder, run by Human's node-wasm build on TensorFlow.js's
// WASM backend: no native download, works under Node (vitest) and Bun (the box).
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Config, FaceResult, Human } from "@vladmandic/human";

export interface MeshPoint {
  x: number;
  y: number;
  z: number;
}

/** One face found in an image; coordinates are pixels of the image that was passed in. */
export interface DetectedFace {
  box: { x: number; y: number; width: number; height: number };
  /** Combined detector and mesh confidence, 0..1. */
  score: number;
  /** 468 MediaPipe mesh points, followed by 10 iris points when iris refinement ran (478). */
  mesh: MeshPoint[];
}

export interface FaceLandmarkerOptions {
  /** Most faces returned per image (largest first). */
  maxFaces?: number;
  /** Detector confidence below which a candidate is dropped. */
  minConfidence?: number;
}

/** How big a face looks in the picture: the area of its mesh's bounding box (pixels²). */
export function meshArea(face: DetectedFace): number {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const p of face.mesh) {
    x0 = Math.min(x0, p.x);
    x1 = Math.max(x1, p.x);
    y0 = Math.min(y0, p.y);
    y1 = Math.max(y1, p.y);
  }
  return (x1 - x0) * (y1 - y0);
}

const requireHere = createRequire(import.meta.url);

/** Where the package files live; resolved, not imported (Human's `exports` lack "./" keys). */
function packagePaths() {
  // `require.resolve("@vladmandic/human")` names dist/human.node.js (the tfjs-node build we do
  // not load); the wasm build and the models sit beside it.
  const humanDist = dirname(requireHere.resolve("@vladmandic/human"));
  const wasmDist = dirname(requireHere.resolve("@tensorflow/tfjs-backend-wasm"));
  return {
    humanWasmBuild: join(humanDist, "human.node-wasm.js"),
    modelsDir: join(humanDist, "..", "models"),
    wasmDir: wasmDist,
  };
}

/**
 * Node's and Bun's fetch refuse file:// URLs, and Human loads models with fetch. While the
 * models load, answer file:// URLs inside the models folder from disk; everything else goes to
 * the real fetch. Restored right after loading.
 */
async function withModelFetch<T>(modelsUrl: string, run: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  const shim = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(modelsUrl)) return realFetch(input, init);
    const bytes = await readFile(new URL(url));
    const type = url.endsWith(".json") ? "application/json" : "application/octet-stream";
    return new Response(bytes, { status: 200, headers: { "content-type": type } });
  };
  globalThis.fetch = Object.assign(shim, { preconnect: () => {} }) as typeof fetch;
  try {
    return await run();
  } finally {
    globalThis.fetch = realFetch;
  }
}

function humanConfig(modelsUrl: string, wasmDir: string, opts: Required<FaceLandmarkerOptions>): Partial<Config> {
  return {
    backend: "wasm",
    // A plain path: under Node and Bun the wasm backend reads its .wasm file with fs.
    wasmPath: `${wasmDir}/`,
    wasmPlatformFetch: false,
    modelBasePath: modelsUrl,
    debug: false,
    warmup: "none",
    cacheSensitivity: 0,
    cacheModels: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      // rotation: the mesh runs on a crop turned upright, so tilted heads get a usable mesh.
      detector: {
        enabled: true,
        rotation: true,
        maxDetected: opts.maxFaces,
        minConfidence: opts.minConfidence,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      iris: { enabled: true },
      attention: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
  } as Partial<Config>;
}

/** What one `detect` call asks for; absent fields take the landmarker's defaults. */
export interface DetectOptions {
  /** The iris model (478 points); default true. */
  iris?: boolean;
  /** Most faces returned; default the landmarker's `maxFaces`. */
  maxFaces?: number;
  /** Turn each face's crop upright before the mesh (tilted heads); default true. */
  rotation?: boolean;
}

/** The face detector and mesh (one per process is enough; calls are serialised). */
export class FaceLandmarker {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly human: Human,
    private readonly maxFaces: number,
  ) {}

  static async load(options: FaceLandmarkerOptions = {}): Promise<FaceLandmarker> {
    const opts = { maxFaces: 20, minConfidence: 0.35, ...options };
    const paths = packagePaths();
    const modelsUrl = pathToFileURL(paths.modelsDir).href + "/";
    const mod = requireHere(paths.humanWasmBuild) as { Human: new (c: Partial<Config>) => Human };
    const human = new mod.Human(humanConfig(modelsUrl, paths.wasmDir, opts));
    await withModelFetch(modelsUrl, async () => {
      await human.init();
      await human.load();
    });
    if (human.tf.getBackend() !== "wasm") throw new Error(`face landmarks: expected the wasm backend, got ${human.tf.getBackend()}`);
    return new FaceLandmarker(human, opts.maxFaces);
  }

  /** TensorFlow.js backend in use ("wasm"). */
  get backend(): string {
    return this.human.tf.getBackend();
  }

  /**
   * Faces in an RGB image (3 bytes per pixel), largest first (`meshArea`). `iris: false` skips
   * the iris model (468 points; the lids then come from the mesh alone): a third cheaper, and the
   * steadier choice for the frames of a video (box/faces/prepare-video.ts). `maxFaces: 1` with
   * `rotation: false` is the cheap look at a camera (box/perception): one detector pass and one mesh.
   */
  detect(rgb: Uint8Array, width: number, height: number, options: DetectOptions = {}): Promise<DetectedFace[]> {
    if (rgb.length !== width * height * 3) throw new Error(`detect: ${rgb.length} bytes is not RGB ${width}x${height}`);
    const asked = { iris: options.iris ?? true, maxFaces: options.maxFaces ?? this.maxFaces, rotation: options.rotation ?? true };
    const run = this.queue.then(() => this.detectNow(rgb, width, height, asked));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async detectNow(rgb: Uint8Array, width: number, height: number, asked: Required<DetectOptions>): Promise<DetectedFace[]> {
    const tf = this.human.tf;
    const input = tf.tensor(rgb, [1, height, width, 3], "int32");
    try {
      // Human merges this into its config for good, so every call says it.
      const result = await this.human.detect(input, {
        face: { iris: { enabled: asked.iris }, detector: { maxDetected: asked.maxFaces, rotation: asked.rotation } },
      } as Partial<Config>);
      if (result.error) throw new Error(`face landmarks: ${result.error}`);
      return result.face
        .filter((f: FaceResult) => f.mesh.length >= 468)
        .map((f: FaceResult) => ({
          box: { x: f.box[0], y: f.box[1], width: f.box[2], height: f.box[3] },
          score: f.score,
          mesh: f.mesh.map((p) => ({ x: p[0], y: p[1], z: p[2] ?? 0 })),
        }))
        .sort((a: DetectedFace, b: DetectedFace) => meshArea(b) - meshArea(a));
    } finally {
      tf.dispose(input);
    }
  }

  /** Frees the models' weights; the landmarker cannot be used afterwards. */
  dispose(): void {
    for (const model of Object.values(this.human.models.models)) model?.dispose();
    this.human.models.reset();
  }
}
