// Implements: the Voices page's word on each engine card (no DOM): what the box says about an
// engine (`GET /api/voices`), read against the person's saved keys and engine choice, as a short
// word, a tone and a sentence; and whether the box has a Chatterbox card at all.
import type { VoiceCatalogue } from "../../../shared/client/index.ts";
import type { VoiceSettings } from "../../voice-keys/schema.ts";
import { engineName as label } from "./voice-names.ts";
import { voiceGroupWords } from "./words.ts";

export const BUILT_IN = "espeak";
export const HOSTED = ["elevenlabs", "cartesia"] as const;

/** The seven catalogue states as a short word and a tone. */
const STATE_WORDS: Record<string, [string, Tone]> = {
  ready: ["Works now", "ok"],
  empty: ["No voices", "warn"],
  starting: ["Starting", "warn"],
  refused: ["Refused", "bad"],
  unreachable: ["Unreachable", "bad"],
  timed_out: ["No answer in time", "bad"],
  key_problem: ["Key problem", "bad"],
};

type Tone = "ok" | "warn" | "bad" | "muted";
export type Live = { kind: "checking" } | { kind: "ok"; c: VoiceCatalogue; boxHas: Set<string> | null } | { kind: "down"; why: string };
export interface CardState {
  word: string;
  tone: Tone;
  text: string;
  sample: boolean;
  /** The box has not picked up the person's choice yet: check again shortly. */
  pending?: boolean;
}

/**
 * What the box says about one engine, read against the person's settings: the box answers for the
 * account that would speak, so a saved key that is not chosen, or a choice the box has not picked
 * up yet, are said in the page's own words rather than the box's.
 */
export function engineState(id: string, settings: VoiceSettings | null, live: Live): CardState {
  if (live.kind === "checking") return { word: "Checking…", tone: "muted", text: "", sample: false };
  if (live.kind === "down") return { word: "Unknown", tone: "muted", text: live.why, sample: false };
  const c = live.c;
  const g = c.groups.find((x) => x.provider === id);
  if (!g) return { word: "Not on this box", tone: "muted", text: `This box has no ${label(id)} engine.`, sample: false };
  const [word, tone] = STATE_WORDS[g.state] ?? [g.state, "bad"];
  const ready = g.state === "ready";
  const fromBox: CardState = {
    word,
    tone,
    text: ready ? `${g.voices.length} voice${g.voices.length === 1 ? "" : "s"}.` : voiceGroupWords(g.state, g.reason, label(id)),
    sample: ready,
  };
  if (!(HOSTED as readonly string[]).includes(id)) return fromBox;
  const saved = settings?.keys.some((k) => k.provider === id) ?? false;
  const switching: CardState = {
    word: "Switching",
    tone: "warn",
    text: "The box picks up your change within a few seconds.",
    sample: false,
    pending: true,
  };
  if (saved && settings?.engine === id) {
    if (c.current_provider !== id && c.voice_notice) return { word: "Key problem", tone: "bad", text: c.voice_notice, sample: false };
    return c.current_provider === id ? fromBox : switching;
  }
  // Still speaking with a key the person removed or an engine they left: the box has yet to re-read.
  if (c.byo && c.current_provider === id) return switching;
  if (ready)
    return {
      ...fromBox,
      text: `${fromBox.text} With the box's own ${label(id)} account${saved ? `; choose ${label(id)} above to speak with your key` : ""}.`,
    };
  if (saved)
    return {
      word: "Not in use",
      tone: "muted",
      text: `Your key is saved. Choose ${label(id)} above and the box speaks with it.`,
      sample: false,
    };
  return { word: "Needs your key", tone: "muted", text: `Save your ${label(id)} API key below to use it.`, sample: false };
}

/** Chatterbox gets a card only on a box that has it (its engine, not merely its group). */
export function boxHasChatterbox(live: Live): boolean {
  if (live.kind !== "ok") return false;
  if (live.boxHas) return live.boxHas.has("chatterbox");
  const g = live.c.groups.find((x) => x.provider === "chatterbox");
  return live.c.current_provider === "chatterbox" || (g !== undefined && g.state !== "refused");
}
