// The Voices page through the portal core (`app.request()`, no port): signed-out visits go to
// sign-in; the page is HTML with its security headers, every field labelled, key inputs that are
// password fields the browser does not fill; it never carries a saved key (not even its hint: the
// script reads that from `/auth/voice/settings`). Then the script's reading of the box's states
// against the person's settings (browser/voices-engine-state.ts `engineState`), which needs no DOM.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VoiceCatalogue, VoiceGroup } from "../../shared/client/index.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { startFakeElevenLabs, type FakeElevenLabs } from "../voice-keys/testing/fake-elevenlabs.ts";
import type { VoiceSettings } from "../voice-keys/schema.ts";
import { boxHasChatterbox, engineState, type Live } from "./browser/voices-engine-state.ts";
import type { StudioScript } from "./routes.ts";
import { unlabelled } from "./testing/page-checks.ts";

const SCRIPT: StudioScript = { code: "console.log('studio')", gzip: new Uint8Array([0x1f, 0x8b, 1, 2, 3]), etag: '"abc123"' };
const ELEVEN_KEY = "sk_voicespage0123456789abcdef0123456789abcdQ7zX";

let portal: TestPortal;
let eleven: FakeElevenLabs;
let ada: string;
let root: string;

beforeAll(async () => {
  eleven = await startFakeElevenLabs({ acceptedKey: ELEVEN_KEY });
  portal = await createTestPortal({
    studio: { script: async () => SCRIPT, outbox: "data/outbox" },
    adminEmails: ["root@example.com"],
    voice: { elevenlabsBaseUrl: eleven.url, cartesiaBaseUrl: eleven.url, timeoutMs: 2000 },
  });
  ada = await portal.signIn("ada@example.com");
  root = await portal.signIn("root@example.com");
});
afterAll(async () => {
  await portal.close();
  await eleven.close();
});

const get = (path: string, cookie?: string) => portal.app.request(path, { headers: cookie ? { cookie } : {} });

describe("GET /studio/voices", () => {
  it("sends a signed-out visitor to sign in, coming back here", async () => {
    const res = await get("/studio/voices");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/studio/sign-in?next=%2Fstudio%2Fvoices");
  });

  it("is an HTML page with the studio's security headers, its script and every field labelled", async () => {
    const res = await get("/studio/voices", ada);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none';.*media-src 'self' blob:;.*frame-ancestors 'none'/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toContain('data-page="voices"');
    expect(html).toContain('data-admin="0"');
    expect(html).toContain('<script type="module" src="/studio/app.js"></script>');
    expect(html).toMatch(/<a href="\/studio\/voices" aria-current="page">Voices<\/a>/);
    expect(unlabelled(html, { radios: true })).toEqual([]);
    // No inline styles: the CSP allows none.
    expect(html).not.toMatch(/<style|style="/);
    expect(await (await get("/studio/voices", root)).text()).toContain('data-admin="1"');
  });

  it("offers the three engines as one radio group and a card per engine, with key fields the browser does not remember", async () => {
    const html = await (await get("/studio/voices", ada)).text();
    const radios = [...html.matchAll(/<input type="radio" name="engine" id="engine-(\w+)" value="(\w+)"/g)].map((m) => [m[1], m[2]]);
    expect(radios).toEqual([
      ["espeak", "espeak"],
      ["elevenlabs", "elevenlabs"],
      ["cartesia", "cartesia"],
    ]);
    for (const id of ["espeak", "chatterbox", "elevenlabs", "cartesia"]) expect(html).toContain(`id="voice-card-${id}"`);
    // Chatterbox shows only when the box has it (the script decides).
    expect(html).toMatch(/id="voice-card-chatterbox" data-provider="chatterbox" aria-labelledby="voice-h-chatterbox" hidden=""/);
    for (const id of ["elevenlabs", "cartesia"]) {
      const input = new RegExp(`<input id="voice-key-${id}"[^>]*>`).exec(html)?.[0] ?? "";
      expect(input).toContain('type="password"');
      expect(input).toContain('autocomplete="off"');
      expect(input).toContain('maxlength="512"');
      expect(input).not.toContain("value=");
    }
    expect(html).toContain('<a href="https://elevenlabs.io/app/settings/api-keys">');
    expect(html).toContain('<a href="https://play.cartesia.ai/keys">');
    // Removing a key asks first, the safe answer focused.
    expect(html).toMatch(/<dialog id="remove-key-dialog"[^>]*>.*<button value="cancel" type="submit" autofocus="">Keep the key<\/button>/s);
  });

  it("never carries a saved key, nor its hint, even right after it was saved", async () => {
    const saved = await portal.app.request("/auth/voice/key", {
      method: "PUT",
      headers: { cookie: ada, "content-type": "application/json" },
      body: JSON.stringify({ provider: "elevenlabs", key: ELEVEN_KEY }),
    });
    expect(saved.status).toBe(200);
    const { voice } = (await saved.json()) as { voice: VoiceSettings };
    expect(voice.keys.map((k) => k.last4)).toEqual(["Q7zX"]);
    const html = await (await get("/studio/voices", ada)).text();
    expect(html).not.toContain(ELEVEN_KEY);
    expect(html).not.toContain(voice.keys[0].masked);
    expect(html).not.toMatch(/\bsk_[A-Za-z0-9]{16,}/);
  });

  it("the stylesheet carries the page's own rules", async () => {
    const css = await (await get("/studio/studio.css")).text();
    expect(css).toContain(".voice-grid");
    expect(css).toContain('.voice-state[data-state="bad"]');
  });
});

// ---- the script's reading of the box's states --------------------------------------------------

const group = (provider: string, state: string, reason = "", voices = 0): VoiceGroup => ({
  provider,
  label: provider,
  state,
  reason,
  local: provider === "espeak" || provider === "chatterbox",
  voices: Array.from({ length: voices }, (_, i) => ({
    provider,
    id: `${provider}-${i}`,
    name: `V${i}`,
    language: "en",
    gender: "",
    description: "",
    preview: "",
    recommended: false,
  })),
});

function catalogue(over: Partial<VoiceCatalogue> & { groups: VoiceGroup[] }): VoiceCatalogue {
  return {
    voices: [],
    current: null,
    current_provider: "espeak",
    engine_ready: true,
    provider: "espeak",
    provider_label: "espeak",
    requires_env: null,
    voices_from: "espeak",
    local: true,
    byo: false,
    voice_notice: "",
    ...over,
  };
}

const NOT_SET_UP =
  "ElevenLabs is not set up for you: save your ElevenLabs key on the portal's Voices page or give the box one (BOX_ELEVENLABS_API_KEY).";
const KEY = {
  provider: "elevenlabs",
  last4: "Q7zX",
  masked: "\u2022".repeat(8) + "Q7zX",
  created_at: 1,
  updated_at: 1,
  validated: true,
  validated_at: 1,
};
const person = (engine: string, keys = [KEY]): VoiceSettings => ({ engine, engines: [], keys });
const ok = (c: VoiceCatalogue): Live => ({ kind: "ok", c, boxHas: null });

describe("engineState: what each card says", () => {
  const base = [
    group("espeak", "ready", "", 3),
    group("chatterbox", "refused", "Chatterbox is not set up for you: the box needs BOX_CHATTERBOX_URL."),
    group("elevenlabs", "key_problem", NOT_SET_UP),
    group("cartesia", "key_problem", "x"),
  ];

  it("the box's own engine: its state in words and how many voices it has", () => {
    expect(engineState("espeak", person("espeak"), ok(catalogue({ groups: base })))).toMatchObject({
      word: "Works now",
      tone: "ok",
      text: "3 voices.",
      sample: true,
    });
    const starting = catalogue({ groups: [group("espeak", "starting", "")] });
    expect(engineState("espeak", null, ok(starting))).toMatchObject({
      word: "Starting",
      sample: false,
      text: expect.stringContaining("still starting"),
    });
  });

  it("a hosted provider without a key asks for one, in the page's words rather than the box's env variable", () => {
    const s = engineState("cartesia", person("espeak", []), ok(catalogue({ groups: base })));
    expect(s).toMatchObject({ word: "Needs your key", sample: false });
    expect(s.text).not.toContain("BOX_");
  });

  it("a saved key that is not chosen is 'not in use', not a key problem", () => {
    const s = engineState("elevenlabs", person("espeak"), ok(catalogue({ groups: base })));
    expect(s).toMatchObject({ word: "Not in use", tone: "muted", sample: false });
    expect(s.text).toContain("Choose ElevenLabs above");
  });

  it("a chosen key the box has not picked up yet is pending (the page asks again), not failing", () => {
    expect(engineState("elevenlabs", person("elevenlabs"), ok(catalogue({ groups: base })))).toMatchObject({
      word: "Switching",
      pending: true,
      sample: false,
    });
  });

  it("a removed key or a left engine the box still speaks with is pending too, never 'works now'", () => {
    const c = catalogue({
      groups: [group("espeak", "ready", "", 3), group("elevenlabs", "ready", "", 5)],
      current_provider: "elevenlabs",
      byo: true,
    });
    expect(engineState("elevenlabs", person("espeak", []), ok(c))).toMatchObject({ word: "Switching", pending: true, sample: false });
    expect(engineState("elevenlabs", person("espeak"), ok(c))).toMatchObject({ word: "Switching", pending: true });
  });

  it("a chosen key the box speaks with shows the provider's own state and can play a sample", () => {
    const c = catalogue({
      groups: [group("espeak", "ready", "", 3), group("elevenlabs", "ready", "", 5)],
      current_provider: "elevenlabs",
      byo: true,
    });
    expect(engineState("elevenlabs", person("elevenlabs"), ok(c))).toMatchObject({ word: "Works now", text: "5 voices.", sample: true });
    const refused = catalogue({
      groups: [group("elevenlabs", "timed_out", "ElevenLabs did not list its voices within 8 s.")],
      current_provider: "elevenlabs",
    });
    expect(engineState("elevenlabs", person("elevenlabs"), ok(refused))).toMatchObject({
      word: "No answer in time",
      tone: "bad",
      text: "ElevenLabs did not list its voices within 8 s.",
    });
  });

  it("a chosen key that fails shows the box's voice_notice on its card", () => {
    const notice =
      "Your ElevenLabs key could not be used (invalid_api_key); replies are spoken with the box's own voice (espeak-ng (embedded)) until it works again.";
    const c = catalogue({ groups: base, voice_notice: notice });
    expect(engineState("elevenlabs", person("elevenlabs"), ok(c))).toMatchObject({
      word: "Key problem",
      tone: "bad",
      text: notice,
      sample: false,
    });
  });

  it("each of the seven states has a word; with the box stopped every state is unknown and no sample is offered", () => {
    const words = ["ready", "empty", "starting", "refused", "unreachable", "timed_out", "key_problem"].map(
      (st) => engineState("espeak", null, ok(catalogue({ groups: [group("espeak", st, "", st === "ready" ? 1 : 0)] }))).word,
    );
    expect(words).toEqual(["Works now", "No voices", "Starting", "Refused", "Unreachable", "No answer in time", "Key problem"]);
    const down = engineState("elevenlabs", person("elevenlabs"), {
      kind: "down",
      why: "The box is not answering, so this is unknown until it runs.",
    });
    expect(down).toMatchObject({ word: "Unknown", sample: false, text: expect.stringContaining("unknown until it runs") });
  });

  it("Chatterbox gets a card only on a box that has its engine", () => {
    const c = catalogue({ groups: base });
    expect(boxHasChatterbox({ kind: "ok", c, boxHas: new Set(["espeak"]) })).toBe(false);
    expect(boxHasChatterbox({ kind: "ok", c, boxHas: new Set(["espeak", "chatterbox"]) })).toBe(true);
    // Without the box's settings envelope: a group that is not refused means it is there.
    expect(boxHasChatterbox(ok(c))).toBe(false);
    expect(boxHasChatterbox(ok(catalogue({ groups: [group("chatterbox", "unreachable", "down")] })))).toBe(true);
    expect(boxHasChatterbox({ kind: "checking" })).toBe(false);
  });
});
