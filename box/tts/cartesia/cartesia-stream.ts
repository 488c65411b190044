// Implements: streamed Cartesia speech over `POST /tts/sse` (docs/providers.md 2.4): audio chunks
// yielded as they arrive, word timestamps yielded as they arrive (a chunk with no samples), and
// every way the stream can break mapped to one VoiceProviderError.
import { SseParser } from "../../llm/sse.ts";
import type { UtteranceChunk } from "../engine.ts";
import { clean, errorEvent, garbage, streamCut, type CartesiaAsk } from "./cartesia-errors.ts";
import { openRequest, type CartesiaConnection } from "./cartesia-http.ts";
import { parseEvent, PcmAssembler, wordsOf } from "./cartesia-wire.ts";

export async function* sseSpeech(
  conn: CartesiaConnection,
  voiceId: string,
  body: Record<string, unknown>,
  sampleRate: number,
  signal?: AbortSignal,
): AsyncGenerator<UtteranceChunk> {
  const ask: CartesiaAsk = { kind: "speech", voiceId };
  const req = await openRequest(conn, ask, "/tts/sse", { method: "POST", accept: "text/event-stream", body }, signal);
  try {
    const type = req.res.headers.get("content-type") ?? "";
    if (type && !/event-stream/i.test(type)) {
      const text = await req.res.text().catch(() => "");
      throw req.stopped() ?? garbage(ask, `it is ${type.split(";")[0]}, not an event stream (${clean(text.slice(0, 80)) || "empty"})`);
    }
    if (!req.res.body) throw garbage(ask, "it has no body");
    const reader = req.res.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const pcm = new PcmAssembler();
    const audioMs = () => (samples / sampleRate) * 1000;
    let samples = 0;
    let events = 0;
    // An abort while the consumer held the last chunk must not let buffered audio through.
    const check = () => {
      const why = req.stopped(events > 0);
      if (why) throw why;
    };
    for (;;) {
      check();
      let read: Awaited<ReturnType<typeof reader.read>>;
      req.touch();
      try {
        read = await reader.read();
      } catch {
        throw req.stopped(events > 0) ?? streamCut(audioMs(), "the connection closed before the stream was complete");
      }
      req.pause();
      const messages = read.done
        ? [...parser.feed(decoder.decode()), ...parser.end()]
        : parser.feed(decoder.decode(read.value, { stream: true }));
      for (const m of messages) {
        check();
        const ev = parseEvent(m.data);
        if (!ev) throw garbage(ask, `an event is not Cartesia's JSON (${clean(m.data.slice(0, 80)) || "empty"})`);
        events++;
        if (ev.type === "chunk") {
          const samplesIn = pcm.push(ev.data);
          if (!samplesIn) throw garbage(ask, "an audio chunk is not base64");
          if (samplesIn.length === 0) continue;
          samples += samplesIn.length;
          yield { pcm: samplesIn, sampleRate };
        } else if (ev.type === "timestamps") {
          const words = wordsOf(ev.word_timestamps);
          if (words.length > 0) yield { pcm: new Int16Array(0), sampleRate, words };
        } else if (ev.type === "error") {
          throw errorEvent(ev as Record<string, unknown>, ask, audioMs(), conn.apiKey);
        } else if (ev.type === "done") {
          if (samples === 0) throw garbage(ask, "the stream finished without any audio");
          return;
        }
      }
      if (read.done) {
        if (events === 0) throw garbage(ask, "it carried no events");
        throw streamCut(audioMs(), "the connection closed before the stream was complete");
      }
    }
  } finally {
    // Ends the request whatever happened: finished, failed, aborted, or the consumer stopped early.
    req.release();
  }
}
