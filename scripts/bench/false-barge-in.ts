// Benchmark: false barge-ins (issue 14, items 3 and 5). A corpus made here with ffmpeg and
// espeak-ng (noise-burst coughs, voiced coughs, a click, a door knock, backchannels; and real
// interruptions as controls) is played into the voice socket over a speaking avatar (0 ms fake
// model, a long reply). Per sound: was the utterance cut (`state bargein`), how much of the reply
// was lost, how soon it resumed after the sound ended, and the sound's onset → the avatar silent,
// all read from the audio a WebRTC client receives. Figures only, never assertions.
// Run: node_modules/.bin/bun scripts/bench/false-barge-in.ts   (BOX_BARGE_PAUSE=off: the one-step rule)
import { execFileSync } from "node:child_process";
import type { AudioChunk } from "../../box/media/testing/wrtc-client.ts";
import { concat, energySpan, silence, speech16k } from "../../box/stt/testing/speech-audio.ts";
import { figureLine, machineLineOf, percentile, sleep } from "./bench-kit.ts";
import { openVoiceBench } from "./voice-bench-kit.ts";

const BENCH = "false-barge-in";
const PAUSE = (process.env.BOX_BARGE_PAUSE ?? "on").trim().toLowerCase();
const GRAMMAR = [
  "hello there",
  "please book a table for two",
  "wait stop",
  "can you repeat that",
  "yeah",
  "right",
  "okay",
  "uh huh",
  "mm hmm",
];
const REPLY =
  "Sure, here is a longer answer so that there is something to talk over. The museum opens at nine in the morning and closes at five in the evening. " +
  "On weekends it stays open an hour longer, and the garden cafe serves lunch until three.";
/** Client audio louder than this (s16 RMS of a 10 ms chunk) is the avatar speaking. */
const LOUD = 300;
/** A quiet stretch this long counts as the avatar silent (espeak's own pauses inside a sentence are shorter). */
const SILENT_RUN_MS = 150;

type Sound = { name: string; kind: "noise" | "backchannel" | "control"; pcm: Int16Array };

/** 16 kHz mono s16 from an ffmpeg lavfi source and filter chain. */
function ffmpeg16k(lavfi: string, filter = "anull"): Int16Array {
  const out = execFileSync(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", lavfi, "-af", filter, "-ar", "16000", "-ac", "1", "-f", "s16le", "-"],
    { maxBuffer: 1 << 24 },
  );
  return new Int16Array(out.buffer, out.byteOffset, out.byteLength >> 1).slice();
}

/** A word from the espeak-ng command line in another voice than the avatar's, at 16 kHz. */
function espeakCli(text: string, voice = "en-us+f3"): Int16Array {
  const wav = execFileSync("espeak-ng", ["-v", voice, "-s", "170", "--stdout", text], { maxBuffer: 1 << 24 });
  const out = execFileSync("ffmpeg", ["-v", "error", "-i", "-", "-ar", "16000", "-ac", "1", "-f", "s16le", "-"], {
    input: wav,
    maxBuffer: 1 << 24,
  });
  return new Int16Array(out.buffer, out.byteOffset, out.byteLength >> 1).slice();
}

/** The first `ms` of a voiced word: a cough with some voice in it (Silero hears those). */
async function voicedBurst(word: string, ms: number): Promise<Int16Array> {
  const pcm = await speech16k(word);
  const at = energySpan(pcm)!.startMs * 16;
  const burst = pcm.slice(at, at + ms * 16);
  for (let i = 0; i < burst.length; i++) burst[i] = Math.round(burst[i] * Math.min(1, (burst.length - i) / 320)); // 20 ms fade out
  return burst;
}

async function corpus(): Promise<Sound[]> {
  const noise = (name: string, pcm: Int16Array): Sound => ({ name, kind: "noise", pcm });
  const back = (text: string): Sound => ({ name: text, kind: "backchannel", pcm: espeakCli(text) });
  return [
    noise(
      "cough_pink_noise",
      ffmpeg16k("anoisesrc=d=0.22:c=pink:a=0.6:r=16000", "lowpass=f=2500,afade=t=in:d=0.015,afade=t=out:st=0.04:d=0.18"),
    ),
    noise(
      "cough_brown_double",
      ffmpeg16k("anoisesrc=d=0.5:c=brown:a=0.9:r=16000", "volume='if(lt(mod(t,0.25),0.15),1,0)':eval=frame,afade=t=out:st=0.3:d=0.2"),
    ),
    noise("cough_voiced_ugh", await voicedBurst("ugh", 150)),
    noise("cough_voiced_hah", await voicedBurst("hah", 180)),
    noise("click", ffmpeg16k("aevalsrc=if(lt(t\\,0.003)\\,0.9*sin(2*PI*2500*t)\\,0):d=0.05:s=16000")),
    noise("door_knock", ffmpeg16k("aevalsrc=0.8*sin(2*PI*170*t)*exp(-45*mod(t\\,0.16))*lt(t\\,0.48):d=0.55:s=16000")),
    back("mm-hmm"),
    back("yeah"),
    back("uh-huh"),
    back("right"),
    back("okay"),
    { name: "please book a table for two", kind: "control", pcm: await speech16k("please book a table for two") },
    { name: "wait stop", kind: "control", pcm: espeakCli("wait, stop") },
    { name: "can you repeat that", kind: "control", pcm: espeakCli("can you repeat that") },
  ];
}

/**
 * Start of the first quiet run of SILENT_RUN_MS after `from` (10 ms chunks) and the first loud
 * chunk after it; `final`: the first such run that lasts to the end (the reply was cut).
 */
function silenceAfter(audio: AudioChunk[], from: number, final: boolean): { silentAt: number | null; resumedAt: number | null } {
  const after = audio.filter((c) => c.at >= from);
  let runStart = -1;
  for (let i = 0; i < after.length; i++) {
    if (after[i].rms > LOUD) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = i;
    if ((i - runStart + 1) * 10 >= SILENT_RUN_MS) {
      const resumed = after.slice(i).find((c) => c.rms > LOUD);
      if (final && resumed) continue;
      return { silentAt: after[runStart].at, resumedAt: resumed?.at ?? null };
    }
  }
  return { silentAt: null, resumedAt: null };
}

machineLineOf(BENCH, "start", { barge_pause: PAUSE });
const sounds = await corpus();
const v = await openVoiceBench({ reply: REPLY, grammar: GRAMMAR, env: { BOX_BARGE_PAUSE: PAUSE } });
const { media, ws, mic, when } = v;
try {
  const hello = await speech16k("hello there");
  /** One turn of REPLY with `sound` (or nothing) played 700 ms into its speech. */
  async function turn(sound: Sound | null) {
    await media.until(() => media.audioRmsOver(400) < 50, 20_000, "quiet before the turn");
    const from = ws.frames.length;
    mic.say(hello);
    await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.speaking === true, 20_000, "speaking");
    await media.until(() => media.audioRmsOver(100) > LOUD, 5000, "avatar speech");
    const tSpeech = performance.now();
    await sleep(700);
    let onset = NaN;
    let end = NaN;
    if (sound) {
      await mic.drained();
      const span = energySpan(sound.pcm, 100) ?? { startMs: 0, endMs: sound.pcm.length / 16 };
      mic.say(concat(sound.pcm, silence(20)));
      await mic.drained();
      // lastSpeechSentAt: when the sound's last chunk went out; back from there to its voice.
      end = mic.lastSpeechSentAt - (sound.pcm.length / 16 + 20 - span.endMs);
      onset = end - (span.endMs - span.startMs);
    }
    const ended = await ws.waitFor((f) => ws.frames.indexOf(f) >= from && f.type === "state" && f.thinking === false, 40_000, "turn end");
    const bargein = ws.frames.slice(from).find((f) => f.type === "state" && f.bargein === true);
    if (bargein) {
      // The sound took the floor: whatever turn it started is stopped before the next sound.
      await sleep(2500);
      await v.interrupt();
    }
    // Cut: long enough after the event for the silence to reach the client, before the next reply.
    const stop = bargein ? when(bargein) + 600 : when(ended) + 300;
    const audio = media.audio.filter((c) => c.at >= tSpeech - 1000 && c.at <= stop);
    const loudMs = audio.filter((c) => c.rms > LOUD).length * 10;
    const quiet = Number.isFinite(onset) ? silenceAfter(audio, onset, !!bargein) : { silentAt: null, resumedAt: null };
    const finals = ws.frames
      .slice(from)
      .filter((f) => f.type === "final")
      .map((f) => f.text as string);
    return { bargein: !!bargein, loudMs, onset, end, ...quiet, finals, bargeAt: bargein ? when(bargein) : null };
  }

  const baseline = await turn(null);
  const msPerWord = baseline.loudMs / REPLY.split(/\s+/).length;
  figureLine(BENCH, "baseline_reply_loud_audio", baseline.loudMs, "ms", null, null, { words: REPLY.split(/\s+/).length });
  const silentMs: number[] = [];
  const resumeMs: number[] = [];
  let cut = 0;
  let falseItems = 0;
  let wordsLost = 0;
  let resumedIn500 = 0;
  let paused = 0;
  for (const sound of sounds) {
    const r = await turn(sound);
    const lostMs = Math.max(0, baseline.loudMs - r.loudMs);
    // Not cut: a silence that began well after the sound is one of the reply's own pauses, not a pause for it.
    const silent = r.silentAt !== null && (r.bargein || r.silentAt - r.onset < 600) ? r.silentAt - r.onset : null;
    const resumed = !r.bargein && r.resumedAt !== null && silent !== null ? r.resumedAt - r.end : null;
    if (silent !== null) silentMs.push(silent);
    if (sound.kind !== "control") {
      falseItems++;
      if (r.bargein) cut++;
      wordsLost += r.bargein ? Math.round(lostMs / msPerWord) : 0;
      if (silent !== null && !r.bargein) paused++;
      if (resumed !== null) {
        resumeMs.push(resumed);
        if (resumed <= 500) resumedIn500++;
      }
    }
    figureLine(BENCH, `sound:${sound.name}`, silent ?? NaN, "ms", null, null, {
      kind: sound.kind,
      sound_ms: Math.round(r.end - r.onset),
      cut: r.bargein,
      onset_to_silent_ms: silent === null ? null : Math.round(silent),
      sound_end_to_resumed_ms: resumed === null ? null : Math.round(resumed),
      reply_loud_ms: r.loudMs,
      words_lost: r.bargein ? Math.round(lostMs / msPerWord) : 0,
      finals: r.finals.slice(1),
    });
  }
  figureLine(BENCH, "false_barge_ins_cut", cut, "of corpus", "0", cut === 0, { corpus: falseItems, barge_pause: PAUSE });
  figureLine(BENCH, "words_lost_to_false_barge_ins", wordsLost, "words", "0", wordsLost === 0, { barge_pause: PAUSE });
  figureLine(
    BENCH,
    "paused_and_resumed_within_500ms",
    resumedIn500,
    `of ${paused} paused`,
    "all",
    paused > 0 ? resumedIn500 === paused : null,
    { resume_p50_ms: percentile(resumeMs, 50), resume_max_ms: resumeMs.length ? Math.max(...resumeMs) : null },
  );
  const p50 = percentile(silentMs, 50);
  figureLine(BENCH, "onset_to_avatar_silent_at_client_p50", p50, "ms", "<= 200", Number.isFinite(p50) ? p50 <= 200 : null, {
    n: silentMs.length,
    p95_ms: percentile(silentMs, 95),
  });
  machineLineOf(BENCH, "end", { barge_pause: PAUSE });
} finally {
  await v.close();
}
process.exit(0);
