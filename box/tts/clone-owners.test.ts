// Whose cloned voice is whose (issue 22 item 3), below the routes: the rule itself, then who speaks
// for whom (accounts.ts) with a real Chatterbox client against the protocol fake. Everything that
// speaks (/api/chat, /api/talk, the sockets) goes through `route` / `checkPick`; the catalogue and a
// voice session's language switch read `rowsOf` / `slotOf`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../auth/principal.ts";
import { VoiceAccounts } from "./accounts.ts";
import { ChatterboxEngine } from "./chatterbox/chatterbox-engine.ts";
import { FakeChatterbox } from "./chatterbox/testing/fake-chatterbox.ts";
import { referenceFileName } from "./chatterbox/voice-ids.ts";
import { CloneOwners, ownerTag } from "./clone-owners.ts";
import type { VoiceEngine } from "./engine.ts";

const K = "key:" + "a".repeat(64);
const K2 = "key:" + "b".repeat(64);
const OPERATOR_KEY = "box_operator_key";
const OPERATOR = `key:${sha256Hex(OPERATOR_KEY)}`;
const KS = `clone:${referenceFileName("Karen", "wav", "0a1b2c3d", ownerTag(K))}`;
const LEGACY = "clone:Old_Voice--0a1b2c3d.wav";
const HOUSE = "clone:Gianna.wav";

describe("CloneOwners", () => {
  const owners = CloneOwners.forBox([OPERATOR_KEY]);

  it("a clone is its uploader's; nobody else, not the box itself, may use it", () => {
    expect(owners.mayUse(K, "chatterbox", KS)).toBe(true);
    expect(owners.mayUse(K2, "chatterbox", KS)).toBe(false);
    expect(owners.mayUse(OPERATOR, "chatterbox", KS)).toBe(false);
    expect(owners.mayUse("owner:karen@x.test", "chatterbox", KS)).toBe(false);
    expect(owners.mayUse(null, "chatterbox", KS)).toBe(false);
  });

  it("a clone made before clones had owners is the operator's (BOX_API_KEYS, or an open box)", () => {
    expect(owners.mayUse(OPERATOR, "chatterbox", LEGACY)).toBe(true);
    expect(owners.mayUse("open", "chatterbox", LEGACY)).toBe(true);
    expect(owners.mayUse(K, "chatterbox", LEGACY)).toBe(false);
    expect(owners.mayUse(null, "chatterbox", LEGACY)).toBe(false);
  });

  it("predefined voices, the operator's own reference files and other engines' ids are everyone's", () => {
    for (const who of [K, K2, null]) {
      expect(owners.mayUse(who, "chatterbox", "Emily.wav")).toBe(true);
      expect(owners.mayUse(who, "chatterbox", HOUSE)).toBe(true);
      expect(owners.mayUse(who, "espeak", KS)).toBe(true);
    }
  });

  it("the tag shows neither the key digest nor the e-mail address behind it", () => {
    expect(ownerTag(K)).toMatch(/^[0-9a-f]{16}$/);
    expect(ownerTag(K)).not.toBe(ownerTag(K2));
    expect(K).not.toContain(ownerTag(K));
    expect(ownerTag("owner:karen@x.test")).not.toMatch(/karen/);
  });
});

describe("VoiceAccounts with clone owners", () => {
  let fake: FakeChatterbox;
  let accounts: VoiceAccounts;
  const slot = new Map<string, string>();

  beforeAll(async () => {
    fake = await FakeChatterbox.start({ references: [KS, LEGACY, HOUSE].map((id) => id.slice("clone:".length)) });
    const chatterbox = new ChatterboxEngine({ baseUrl: fake.url, timeoutMs: 2_000 });
    // A second local engine, to ask it for the clone's id.
    const espeak: VoiceEngine = {
      id: "espeak",
      ready: true,
      synthesize: () => Promise.reject(new Error("unused")),
      voices: () => [{ provider: "espeak", id: "en-us", name: "English", language: "en-us", gender: "", description: "" }],
    };
    accounts = new VoiceAccounts({
      providers: [
        { id: "espeak", label: "espeak-ng (embedded)", local: true, byo: false, boxEngine: espeak },
        { id: "chatterbox", label: "Chatterbox (self-hosted)", local: true, byo: false, boxEngine: chatterbox },
      ],
      boot: "chatterbox",
      owners: CloneOwners.forBox([OPERATOR_KEY]),
      slotVoice: async (subject) => slot.get(subject),
    });
  });
  afterAll(async () => {
    await fake.close();
  });

  const refused = async (p: Promise<unknown>) => {
    const err = (await p.then(
      () => null,
      (e: unknown) => e,
    )) as { status?: number; code?: string; message?: string } | null;
    expect(err).toMatchObject({ status: 400, code: "unknown_voice" });
    return err!.message!;
  };

  it("speaking another credential's clone is refused like a voice that does not exist, before any request", async () => {
    const before = fake.requests.length;
    expect(await refused(accounts.route({ subject: K2, voice: KS }))).toBe(
      `voice ${JSON.stringify(KS)} is not a voice of Chatterbox (self-hosted).`,
    );
    expect(await refused(accounts.checkPick({ subject: K2, voice: KS, provider: "chatterbox" }))).toMatch(/is not a voice of Chatterbox/);
    expect(await refused(accounts.route({ subject: null, voice: KS }))).toMatch(/is not a voice of/);
    expect(fake.requests.filter((r) => r.path === "/tts")).toHaveLength(0);
    expect(fake.requests.length).toBe(before);
    expect((await accounts.checkPick({ subject: K, voice: KS, provider: "chatterbox" })).voice).toBe(KS);
  });

  it("asked through another engine, the answer does not say the id is a Chatterbox voice", async () => {
    const msg = await refused(accounts.checkPick({ subject: K2, voice: KS, provider: "espeak" }));
    expect(msg).not.toMatch(/Chatterbox/);
    expect(await refused(accounts.checkPick({ subject: K, voice: KS, provider: "espeak" }))).toMatch(
      /is a Chatterbox \(self-hosted\) voice/,
    );
  });

  it("a settings slot naming another credential's clone speaks the engine's default instead", async () => {
    slot.set(K2, KS);
    slot.set(K, KS);
    expect((await accounts.route({ subject: K2 })).voice).toBeUndefined();
    expect((await accounts.route({ subject: K })).voice).toBe(KS);
  });

  it("each caller's rows: their own clones, the operator's old ones for the operator, the server's for all", async () => {
    const rows = async (subject: string) =>
      (await accounts.rowsOf(await accounts.route({ subject }))).map((r) => r.id).filter((id) => id.startsWith("clone:"));
    expect(await rows(K)).toEqual(expect.arrayContaining([KS, HOUSE]));
    expect(await rows(K)).not.toContain(LEGACY);
    expect(await rows(K2)).toEqual([HOUSE]);
    expect((await rows(OPERATOR)).sort()).toEqual([HOUSE, LEGACY].sort());
    expect((await accounts.rowsOf(accounts.boxRoute())).map((r) => r.id).filter((id) => id.startsWith("clone:"))).toEqual([HOUSE]);
  });
});
