// The words of a whole clip from the box's speech recogniser (the AsrEngine seam of box/stt/):
// its 16 kHz audio streamed into one AsrStream, every final kept, finish() settles the last.
import type { AsrEngine } from "../stt/asr.ts";
import { ASR_SAMPLE_RATE } from "../stt/asr.ts";
import { to16k } from "../tts/resample.ts";

export interface TranscribeOptions {
  /** Given up after this long (the stream is closed and the words so far are dropped). */
  timeoutMs: number;
  /** Audio handed over per write. */
  chunkMs?: number;
}

/** The transcript ("" when nothing was heard); throws when the recogniser fails or times out. */
export async function transcribeClip(engine: AsrEngine, pcm: Int16Array, sampleRate: number, o: TranscribeOptions): Promise<string> {
  const audio = sampleRate === ASR_SAMPLE_RATE ? pcm : to16k(pcm, sampleRate);
  // No language: engines take their default (pocketsphinx has English only); no grammar: open speech.
  const stream = await engine.start({ sampleRate: ASR_SAMPLE_RATE });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const step = Math.round((ASR_SAMPLE_RATE * (o.chunkMs ?? 100)) / 1000);
    for (let at = 0; at < audio.length; at += step) stream.write(audio.subarray(at, at + step));
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`speech recognition took over ${Math.round(o.timeoutMs / 1000)} s`)), o.timeoutMs);
    });
    return await Promise.race([stream.finish(), timeout]);
  } finally {
    clearTimeout(timer);
    stream.close();
  }
}
