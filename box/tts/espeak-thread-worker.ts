// Implements: the worker side of box/tts/espeak-thread.ts: its own espeak-ng engine, one clause
// at a time, the audio handed back without a copy.
import { parentPort, threadId, workerData } from "node:worker_threads";
import { UpstreamError } from "../../shared/errors/api-error.ts";
import { EspeakEngine, type EspeakEngineOptions } from "./espeak-engine.ts";
import type { ThreadReply, ThreadRequest } from "./espeak-thread.ts";

const port = parentPort!;
const reply = (m: ThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

try {
  const engine = await EspeakEngine.load({ ...(workerData as EspeakEngineOptions), thread: false });
  port.on("message", async ({ id, text, options }: ThreadRequest) => {
    try {
      const utterance = await engine.synthesize(text, options);
      reply({ id, utterance }, [utterance.pcm.buffer as ArrayBuffer]);
    } catch (err) {
      const e = err as Error;
      reply({
        id,
        error: {
          message: e.message,
          status: err instanceof UpstreamError ? err.status : 503,
          retryable: err instanceof UpstreamError ? err.retryable : false,
        },
      });
    }
  });
  reply({ ready: true, threadId });
} catch (err) {
  reply({ failed: (err as Error).message });
}
