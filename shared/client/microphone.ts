// Browser microphone capture for the voice socket: echo cancellation, noise suppression and
// automatic gain requested; resampled to 16 kHz mono s16le in 20 ms frames. The resampler and
// framer are pure (tested in Node); the capture itself needs a browser. Failures are told in words.
import { AvatarApiError } from "./errors.ts";

export const MIC_CONSTRAINTS = { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 } as const;
export const TARGET_RATE = 16_000;

export type MicState = "pending" | "granted" | "denied" | "unavailable" | "stopped";
export interface MicrophoneEvents {
  mic_state: { state: MicState; message?: string };
}

export interface MicrophoneOptions {
  mediaDevices?: MediaDevices;
  AudioContext?: typeof AudioContext;
  deviceId?: string;
  /** Samples per frame sent (default 320: 20 ms at 16 kHz). */
  frameSamples?: number;
}

export interface Microphone {
  stream: MediaStream;
  /** The capture rate before resampling. */
  inputRate: number;
  stop(): void;
}

/** Box-filter downsampling (each output averages the input it spans), linear when upsampling. */
export class PcmResampler {
  private readonly ratio: number;
  private acc = 0;
  private count = 0;
  private consumed = 0;
  private emitted = 0;
  private last = 0;

  constructor(
    readonly inputRate: number,
    readonly outputRate = TARGET_RATE,
  ) {
    this.ratio = inputRate / outputRate;
  }

  push(input: Float32Array): Float32Array {
    if (this.ratio === 1) return input.slice();
    const out: number[] = [];
    if (this.ratio > 1) {
      for (let i = 0; i < input.length; i++) {
        this.acc += input[i];
        this.count++;
        if (++this.consumed >= (this.emitted + 1) * this.ratio) {
          out.push(this.acc / this.count);
          this.acc = 0;
          this.count = 0;
          this.emitted++;
        }
      }
    } else {
      for (let i = 0; i < input.length; i++) {
        const x = input[i];
        // Output samples whose position falls between the previous input sample and this one.
        while (this.emitted * this.ratio <= this.consumed) {
          const frac = this.emitted * this.ratio - (this.consumed - 1);
          out.push(this.consumed === 0 ? x : this.last + (x - this.last) * frac);
          this.emitted++;
        }
        this.last = x;
        this.consumed++;
      }
    }
    return Float32Array.from(out);
  }
}

/** Cuts float samples into Int16 frames of a fixed size (clamped to [-1, 1]). */
export class PcmFramer {
  private frame: Int16Array;
  private fill = 0;

  constructor(readonly frameSamples = 320) {
    this.frame = new Int16Array(frameSamples);
  }

  push(samples: Float32Array): Int16Array[] {
    const frames: Int16Array[] = [];
    for (let i = 0; i < samples.length; i++) {
      const s = Math.max(-1, Math.min(1, samples[i]));
      this.frame[this.fill++] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
      if (this.fill === this.frameSamples) {
        frames.push(this.frame);
        this.frame = new Int16Array(this.frameSamples);
        this.fill = 0;
      }
    }
    return frames;
  }
}

const TAP = `class AvatarMicTap extends AudioWorkletProcessor { process(inputs) { const ch = inputs[0] && inputs[0][0]; if (ch) this.port.postMessage(ch.slice(0)); return true; } } registerProcessor("avatar-mic-tap", AvatarMicTap);`;

/** Why the microphone could not be opened, in words a person can act on. */
export function micProblem(err: unknown): string {
  const g = globalThis as {
    isSecureContext?: boolean;
    window?: unknown;
    top?: unknown;
    document?: { permissionsPolicy?: { allowsFeature(f: string): boolean }; featurePolicy?: { allowsFeature(f: string): boolean } };
  };
  const name = (err as { name?: string })?.name ?? "";
  if (g.isSecureContext === false) return "The microphone needs a secure page (https:// or http://localhost); this page is plain http.";
  const policy = g.document?.permissionsPolicy ?? g.document?.featurePolicy;
  const framed = g.window !== undefined && g.top !== undefined && g.top !== g.window;
  if ((name === "NotAllowedError" || name === "SecurityError") && framed && policy && !policy.allowsFeature("microphone")) {
    return 'This page is embedded in a frame without allow="microphone"; the embedding page must add it.';
  }
  if (name === "NotAllowedError") return "Microphone permission was denied; allow it in the browser's site settings and try again.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No microphone was found on this device.";
  if (name === "NotReadableError" || name === "AbortError")
    return "The microphone is in use by another application or could not be started.";
  if (name === "no_media_devices") return "This browser offers no microphone access here (navigator.mediaDevices is missing).";
  return `The microphone could not be opened: ${(err as Error)?.message ?? String(err)}`;
}

/** Opens the microphone and calls `onPcm` with 16 kHz s16le frames until stopped. */
export async function openMicrophone(
  onPcm: (pcm: Int16Array) => void,
  options: MicrophoneOptions,
  emit: <K extends keyof MicrophoneEvents>(type: K, payload: MicrophoneEvents[K]) => void,
): Promise<Microphone> {
  const g = globalThis as {
    navigator?: { mediaDevices?: MediaDevices };
    AudioContext?: typeof AudioContext;
    webkitAudioContext?: typeof AudioContext;
  };
  const devices = options.mediaDevices ?? g.navigator?.mediaDevices;
  const Ctx = options.AudioContext ?? g.AudioContext ?? g.webkitAudioContext;
  const refuse = (state: MicState, err: unknown): never => {
    const message = micProblem(err);
    emit("mic_state", { state, message });
    throw new AvatarApiError(0, state === "denied" ? "mic_denied" : "mic_unavailable", message, { source: "local", cause: err });
  };
  if (!devices?.getUserMedia || !Ctx)
    return refuse("unavailable", Object.assign(new Error("no mediaDevices"), { name: "no_media_devices" }));
  emit("mic_state", { state: "pending" });
  let stream: MediaStream;
  try {
    stream = await devices.getUserMedia({
      audio: { ...MIC_CONSTRAINTS, ...(options.deviceId ? { deviceId: { exact: options.deviceId } } : {}) },
    });
  } catch (err) {
    return refuse((err as { name?: string })?.name === "NotAllowedError" ? "denied" : "unavailable", err);
  }
  emit("mic_state", { state: "granted" });
  const ctx = new Ctx();
  const resampler = new PcmResampler(ctx.sampleRate);
  const framer = new PcmFramer(options.frameSamples ?? 320);
  const take = (samples: Float32Array) => {
    for (const frame of framer.push(resampler.push(samples))) onPcm(frame);
  };
  const source = ctx.createMediaStreamSource(stream);
  // A silent route to the destination keeps the graph pulling the tap (nothing is heard).
  const sink = ctx.createGain();
  sink.gain.value = 0;
  sink.connect(ctx.destination);
  let tap: AudioNode;
  try {
    const url = URL.createObjectURL(new Blob([TAP], { type: "application/javascript" }));
    await ctx.audioWorklet.addModule(url);
    URL.revokeObjectURL(url);
    const node = new AudioWorkletNode(ctx, "avatar-mic-tap");
    node.port.onmessage = (e: MessageEvent<Float32Array>) => take(e.data);
    tap = node;
  } catch {
    // No worklets (an old browser, or a policy refusing blob: modules): the older processor node.
    const node = ctx.createScriptProcessor(4096, 1, 1);
    node.onaudioprocess = (e) => take(e.inputBuffer.getChannelData(0));
    tap = node;
  }
  source.connect(tap);
  tap.connect(sink);
  if (ctx.state === "suspended") await ctx.resume().catch(() => undefined);
  let stopped = false;
  return {
    stream,
    inputRate: ctx.sampleRate,
    stop() {
      if (stopped) return;
      stopped = true;
      for (const t of stream.getTracks()) t.stop();
      source.disconnect();
      tap.disconnect();
      void ctx.close().catch(() => undefined);
      emit("mic_state", { state: "stopped" });
    },
  };
}
