// Implements: docs/architecture.md "Conventions in the code" — every ONNX model sets its threads and execution providers
// explicitly: CUDA when onnxruntime-node has its provider library, else CPU; one intra-op
// thread with spinning off (the efficient setting for real-time media, see docs/architecture.md "ONNX sessions").
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as ort from "onnxruntime-node";

export type ExecutionProvider = "cuda" | "cpu";

/** True when onnxruntime-node has its CUDA provider library next to the binding. */
export function cudaProviderInstalled(): boolean {
  try {
    const pkg = dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json"));
    const dir = join(pkg, "bin", "napi-v6", process.platform, process.arch);
    return existsSync(join(dir, "libonnxruntime_providers_cuda.so")) || existsSync(join(dir, "onnxruntime_providers_cuda.dll"));
  } catch {
    return false;
  }
}

export interface SessionChoice {
  executionProviders?: ExecutionProvider[];
  threads?: number;
}

/** Creates the session; CUDA listed but unusable (no driver, no device) falls back to the CPU. */
export async function createSession(
  model: string | Uint8Array,
  choice: SessionChoice = {},
): Promise<{ session: ort.InferenceSession; provider: ExecutionProvider }> {
  const wanted = choice.executionProviders ?? (cudaProviderInstalled() ? ["cuda", "cpu"] : ["cpu"]);
  const options = (eps: ExecutionProvider[]): ort.InferenceSession.SessionOptions => ({
    executionProviders: eps,
    intraOpNumThreads: choice.threads ?? 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    extra: { session: { intra_op: { allow_spinning: "0" } } },
  });
  const create = (eps: ExecutionProvider[]) =>
    typeof model === "string" ? ort.InferenceSession.create(model, options(eps)) : ort.InferenceSession.create(model, options(eps));
  try {
    return { session: await create(wanted), provider: wanted[0] ?? "cpu" };
  } catch (err) {
    if (!wanted.includes("cuda") || wanted.every((p) => p === "cuda")) throw err;
    return { session: await create(["cpu"]), provider: "cpu" };
  }
}
