// Which voice speaks when (docs/api-notes.md "A voice that fits the face"): the call's own voice, then the
// caller's settings slot, then the face's own voice, then the engine's default; and a stock face's
// own voice reaching POST /api/talk (through the real Speaker) when nothing else is chosen.
import { describe, expect, test } from "vitest";
import type { Principal } from "../auth/principal.ts";
import { liveRoutes, type LiveRouteDeps } from "../live/routes.ts";
import { Speaker } from "../live/speaker.ts";
import { VoiceAccounts } from "./accounts.ts";
import type { SynthesizeOptions, Utterance, VoiceEngine, VoiceRow } from "./engine.ts";

const row = (provider: string, id: string, gender: string, language: string): VoiceRow => ({
  provider,
  id,
  name: id,
  language,
  gender,
  description: "",
});

/** An engine that records the voice each call asked for. */
function recordingEngine(id: string, rows: VoiceRow[]) {
  const asked: (string | undefined)[] = [];
  const engine: VoiceEngine = {
    id,
    ready: true,
    voices: () => rows,
    synthesize: async (_text: string, o?: SynthesizeOptions): Promise<Utterance> => {
      asked.push(o?.voice);
      return { pcm: new Int16Array(2205), sampleRate: 22050, phonemes: [], words: [], durationMs: 100 };
    },
  };
  return { engine, asked };
}

const ESPEAK_ROWS = [
  row("espeak", "en", "male", "en-gb"),
  row("espeak", "en+f3", "female", "en-gb"),
  row("espeak", "en-us", "male", "en-us"),
  row("espeak", "en-us+f3", "female", "en-us"),
  row("espeak", "fr+f3", "female", "fr-fr"),
];

function accounts(o: { slot?: string; rows?: VoiceRow[]; provider?: string } = {}) {
  const { engine, asked } = recordingEngine(o.provider ?? "espeak", o.rows ?? ESPEAK_ROWS);
  const a = new VoiceAccounts({
    providers: [{ id: engine.id, label: engine.id, local: true, byo: false, boxEngine: engine }],
    boot: engine.id,
    slotVoice: async () => o.slot,
  });
  return { accounts: a, asked };
}

describe("the voice a call speaks with", () => {
  test("a stock face with nothing chosen speaks with its own voice: a woman's for Ava, a man's for Ben", async () => {
    const { accounts: a } = accounts();
    expect((await a.route({ subject: "s", avatar: "stock-ava" })).voice).toBe("en+f3");
    expect((await a.route({ subject: "s", avatar: "stock-ava__happy" })).voice).toBe("en+f3");
    expect((await a.route({ subject: "s", avatar: "stock-ben" })).voice).toBe("en-us");
    expect((await a.route({ subject: "s", avatar: "stock-mei" })).voice).toBe("en-us+f3");
  });

  test("the call's own voice wins over the settings slot, which wins over the face", async () => {
    const { accounts: a } = accounts({ slot: "en-us" });
    expect((await a.route({ subject: "s", avatar: "stock-ava", voice: "fr+f3" })).voice).toBe("fr+f3");
    expect((await a.route({ subject: "s", avatar: "stock-ava" })).voice).toBe("en-us");
  });

  test("a face with no voice of its own, or no face, speaks with the engine's default", async () => {
    const { accounts: a } = accounts();
    expect((await a.route({ subject: "s", avatar: "someone-uploaded" })).voice).toBeUndefined();
    expect((await a.route({ subject: "s" })).voice).toBeUndefined();
  });

  test("on another engine the face takes that engine's first voice of its gender and language, else the default", async () => {
    const hosted = [
      row("cartesia", "v-fr-f", "female", "fr"),
      row("cartesia", "v-en-m", "male", "en"),
      row("cartesia", "v-en-f", "female", "en"),
    ];
    const { accounts: a } = accounts({ provider: "cartesia", rows: hosted });
    expect((await a.route({ subject: "s", avatar: "stock-ava" })).voice).toBe("v-en-f");
    expect((await a.route({ subject: "s", avatar: "stock-ben" })).voice).toBe("v-en-m");
    const { accounts: none } = accounts({ provider: "cartesia", rows: [row("cartesia", "v-fr-f", "female", "fr")] });
    expect((await none.route({ subject: "s", avatar: "stock-ava" })).voice).toBeUndefined();
  });
});

describe("POST /api/talk speaks with the face's voice", () => {
  const principal = { subject: "s", scope: "admin", digest: null, kind: "open", expiresAt: null } as unknown as Principal;

  function talkRig(slot?: string) {
    const { accounts: a, asked } = accounts({ slot });
    const session = {
      avatar: { avatarId: "stock-ava", tone: "neutral" },
      interruptions: 0,
      interruptSignal: new AbortController().signal,
      sayStream: () => ({ id: 1 }),
    };
    const deps = { sessions: { live: () => session }, speaker: new Speaker(a) } as unknown as LiveRouteDeps;
    const talk = liveRoutes(deps).find((r) => r.path === "/api/talk")!;
    const post = (body: Record<string, unknown>) =>
      talk.handler({
        request: new Request("http://box/api/talk", { method: "POST", body: JSON.stringify(body) }),
        principal,
        params: {},
        query: new URLSearchParams(),
      });
    return { post, asked };
  }

  test("with nothing chosen, Ava's talk is spoken with her own (female) voice", async () => {
    const { post, asked } = talkRig();
    await post({ text: "Hello there." });
    expect(asked).toEqual(["en+f3"]);
  });

  test("an explicit voice in the talk wins; so does the caller's settings slot", async () => {
    const explicit = talkRig("en-us");
    await explicit.post({ text: "Hello there.", voice: "fr+f3" });
    expect(explicit.asked).toEqual(["fr+f3"]);
    const slot = talkRig("en-us");
    await slot.post({ text: "Hello there." });
    expect(slot.asked).toEqual(["en-us"]);
  });
});
