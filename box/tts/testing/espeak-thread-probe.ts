// Run by espeak-thread.test.ts under Bun: clauses through the engine, with its synthesis thread
// (argument "thread") or without, printed as JSON (which thread spoke, a digest of what it said).
// One process each way: espeak-ng is one state per process and its callback belongs to one thread.
import { createHash } from "node:crypto";
import { EspeakEngine } from "../espeak-engine.ts";

const said = async (e: EspeakEngine, text: string, voice?: string) => {
  try {
    const u = await e.synthesize(text, voice ? { voice } : {});
    return {
      samples: u.pcm.length,
      rate: u.sampleRate,
      phonemes: u.phonemes,
      words: u.words,
      pcm: createHash("sha256").update(u.pcm).digest("hex"),
    };
  } catch (err) {
    return { error: (err as Error).name, status: (err as { status?: number }).status, message: (err as Error).message };
  }
};
const texts = ["Hello there, this clause is spoken in a worker.", "Bob bought a bumpy map."];
const run = async (e: EspeakEngine) => {
  const out = [];
  for (const t of texts) out.push(await said(e, t));
  out.push(await said(e, "hi", "no-such-voice"));
  return out;
};
const engine = await EspeakEngine.load({ thread: process.argv[2] === "thread" });
console.log(JSON.stringify({ threadId: engine.thread?.threadId ?? 0, said: await run(engine) }));
process.exit(0);
