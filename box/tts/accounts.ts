// Implements: "Which engine speaks, per session" and every `voice_notice`: a voice picked in the
// studio (voice + provider), else the engine the person chose on the portal (read with their saved
// key from the shared database), else the box's own engine (BOX_TTS). Which voice of that engine:
// the call's own `voice`, else the caller's settings slot for the engine, else the voice that fits
// the face on screen (face-voice.ts), else the engine's default (docs/api-notes.md "A voice that fits the face"). When the person's key
// cannot be used (rejected, quota, unreachable), speech falls back to the box's engine and the
// notice says so; it is non-empty exactly while replies are billed to the box's engine instead of
// the account the person chose, and clears when their key works again (re-tried at most every
// `retryMs`, at once when the saved key changes). The failing keys and the notices are kept by
// account-health.ts, the person's saved choice is read by voice-choices.ts, and the shapes of a
// pick and a route are in voice-route.ts; this file routes.
import { ApiError } from "../../shared/errors/api-error.ts";
import type { VoiceKeyCipher } from "../../shared/voice-keys/crypto.ts";
import { VoiceProviderError, type VoiceEngine, type VoiceRow } from "./engine.ts";
import { failureOf, VoiceCatalogue, type ProviderSlot } from "./catalogue.ts";
import type { CloneOwners } from "./clone-owners.ts";
import { faceVoiceOf, type FaceVoice } from "./face-voice.ts";
import { ESPEAK_PROVIDER } from "./espeak-voices.ts";
import { stockFaceVoice } from "../avatars/stock/voices.ts";
import { AccountHealth } from "./account-health.ts";
import { PersonChoices, type ChoiceReader } from "./voice-choices.ts";
import { voiceIdProblem, type ProviderEntry, type VoicePick, type VoiceRoute } from "./voice-route.ts";

export type { ProviderEntry, VoicePick, VoiceRoute } from "./voice-route.ts";

export interface VoiceAccountsOptions {
  providers: readonly ProviderEntry[];
  /** The engine the box booted on (BOX_TTS). */
  boot: string;
  choices?: ChoiceReader | null;
  /** Opens saved keys; null when the box was given no key material. */
  cipher?: VoiceKeyCipher | null;
  /** A credential subject's owner (the person), or undefined when it has none. */
  ownerOf?: (subject: string) => Promise<string | undefined>;
  /** How long a person's engine choice is reused before the shared database is read again. */
  choiceTtlMs?: number;
  /** A failing key is tried again after this long. */
  retryMs?: number;
  /** The voice in a caller's settings slot for a provider (`voice_id`, `voice_id_<provider>`). */
  slotVoice?: (subject: string, provider: string) => Promise<string | undefined>;
  /** Voice lists (cached per provider and caller); default a catalogue of its own. */
  catalogue?: VoiceCatalogue;
  /** The voice that fits a face; default the stock faces' own (box/avatars/stock/voices.ts). */
  faceVoice?: (avatar: string) => FaceVoice | undefined;
  /** Whose cloned voices are whose; absent: every voice is everyone's (a box of one caller). */
  owners?: CloneOwners | null;
  now?: () => number;
  log?: (line: Record<string, unknown>) => void;
}

export class VoiceAccounts {
  private readonly byId: Map<string, ProviderEntry>;
  private readonly keyed = new Map<string, VoiceEngine>();
  /** People's failing keys and their notices. */
  private readonly health: AccountHealth;
  private readonly people: PersonChoices;
  private readonly now: () => number;

  constructor(private readonly o: VoiceAccountsOptions) {
    this.byId = new Map(o.providers.map((p) => [p.id, p]));
    this.now = o.now ?? Date.now;
    this.catalogue = o.catalogue ?? new VoiceCatalogue({ now: this.now });
    if (!this.byId.get(o.boot)?.boxEngine) throw new Error(`the boot voice engine "${o.boot}" has no engine`);
    this.health = new AccountHealth({
      boot: this.boot,
      provider: (id) => this.byId.get(id)!,
      retryMs: o.retryMs ?? 30_000,
      now: this.now,
      log: o.log,
    });
    this.people = new PersonChoices({ choices: o.choices, ownerOf: o.ownerOf, choiceTtlMs: o.choiceTtlMs, now: this.now, log: o.log });
  }

  readonly catalogue: VoiceCatalogue;

  /** One engine, the box's own, for everyone (tests; a box with a single engine and no portal). */
  static single(engine: VoiceEngine, label = engine.id): VoiceAccounts {
    return new VoiceAccounts({ providers: [{ id: engine.id, label, local: true, byo: false, boxEngine: engine }], boot: engine.id });
  }

  get providers(): readonly ProviderEntry[] {
    return this.o.providers;
  }

  get bootEngine(): VoiceEngine {
    return this.byId.get(this.o.boot)!.boxEngine!;
  }

  get boot(): ProviderEntry {
    return this.byId.get(this.o.boot)!;
  }

  provider(id: string): ProviderEntry | undefined {
    return this.byId.get(id);
  }

  /** The box's own route (what `POST /api/talk` falls back to, silently). */
  boxRoute(voice?: string, subject: string | null = null): VoiceRoute {
    const p = this.boot;
    return { engine: p.boxEngine!, provider: p.id, label: p.label, voice, origin: "box", account: "box", notice: "", subject };
  }

  /** Whether `subject` may list and speak `voice` of `provider` (another credential's clone: no). */
  mayUse(subject: string | null, provider: string, voice: string): boolean {
    return this.o.owners?.mayUse(subject, provider, voice) ?? true;
  }

  /**
   * Who speaks for `pick`. A provider named in the pick must be one this caller can use (else 400
   * `voice_provider_unavailable`); a person's key that is failing routes to the box with a notice.
   */
  async route(pick: VoicePick): Promise<VoiceRoute> {
    const route = await this.routeOf(pick);
    if (route.voice !== undefined || !pick.avatar) return route;
    return { ...route, voice: await this.faceDefault(route, pick.avatar) };
  }

  /**
   * The voice of `route`'s engine that fits the face `avatar` (undefined: the engine's default).
   * Read from the catalogue cache; an engine that cannot list its voices speaks its default. A
   * hosted engine given a default voice by whoever runs the box keeps it (their choice, and no
   * voice list is fetched before a first sentence).
   */
  private async faceDefault(route: VoiceRoute, avatar: string): Promise<string | undefined> {
    const face = (this.o.faceVoice ?? stockFaceVoice)(avatar);
    if (!face) return undefined;
    if (route.provider !== ESPEAK_PROVIDER && route.engine.defaultVoiceId) return undefined;
    const rows = await this.rowsOf(route).catch(() => [] as VoiceRow[]);
    return faceVoiceOf(face, route.provider, rows);
  }

  private async routeOf(pick: VoicePick): Promise<VoiceRoute> {
    const bad = pick.voice === undefined ? null : voiceIdProblem(pick.voice);
    if (bad) throw new ApiError(400, "unknown_voice", `voice is not a voice id (${bad}).`);
    const person = pick.subject ? await this.people.personOf(pick.subject) : null;
    const wanted = pick.provider ?? (person?.choice && this.byId.has(person.choice.engine) ? person.choice.engine : this.o.boot);
    const p = this.byId.get(wanted);
    if (!p)
      throw new ApiError(
        400,
        "voice_provider_unavailable",
        `voice_provider "${wanted.slice(0, 40)}" is not a voice engine of this box; use one of ${[...this.byId.keys()].join(", ")}.`,
      );
    let voice =
      pick.voice ?? (pick.subject && this.o.slotVoice ? await this.o.slotVoice(pick.subject, p.id).catch(() => undefined) : undefined);
    if (voice !== undefined && !this.mayUse(pick.subject, p.id, voice)) {
      // Another credential's clone answers as a voice that does not exist (fact 8: never "not yours").
      if (pick.voice !== undefined)
        throw new ApiError(400, "unknown_voice", `voice ${JSON.stringify(voice.slice(0, 60))} is not a voice of ${p.label}.`);
      voice = undefined; // a settings slot naming one speaks the engine's default instead
    }
    // The person's own account for this provider, when they saved a key for the engine they chose.
    const sealed = person?.choice?.engine === p.id ? person.choice.sealed : null;
    if (sealed && p.withKey && person && this.o.cipher) {
      const account = `owner:${person.owner}:${p.id}`;
      const sealedAt = sealed.ciphertext;
      const failing = this.health.failingReason(account, sealedAt);
      if (failing !== null) return this.health.fallback(p, failing, pick);
      let key: string;
      try {
        key = await this.o.cipher.open(person.owner, p.id, sealed);
      } catch (err) {
        const reason = `your saved ${p.label} key cannot be read on this box (${(err as Error).message})`;
        return this.health.unreadable(p, account, sealedAt, reason, pick);
      }
      const engine = this.keyedEngine(p, key);
      return { engine, provider: p.id, label: p.label, voice, origin: "user", account, notice: "", sealedAt, subject: pick.subject };
    }
    if (!p.boxEngine) {
      if (pick.provider) {
        throw new ApiError(
          400,
          "voice_provider_unavailable",
          `voice_provider "${p.id}": ${p.label} cannot speak for you on this box: save your ${p.label} key on the portal's Voices page and choose it there${p.requiresEnv ? `, or give the box its own (${p.requiresEnv})` : ""}.`,
        );
      }
      return this.boxRoute(undefined, pick.subject);
    }
    return { engine: p.boxEngine, provider: p.id, label: p.label, voice, origin: "box", account: "box", notice: "", subject: pick.subject };
  }

  /** The catalogue slot a route reads its voices through (its account's own cache entry). */
  slotOf(route: VoiceRoute): ProviderSlot {
    const p = this.byId.get(route.provider)!;
    const subject = route.subject ?? null;
    const visible = this.o.owners ? (row: VoiceRow) => this.mayUse(subject, row.provider, row.id) : undefined;
    return {
      provider: p.id,
      label: p.label,
      local: p.local,
      engine: route.engine,
      account: route.account,
      recommended: route.voice ?? null,
      visible,
    };
  }

  /** The voices `route` can speak (cached like the catalogue); a provider failure is thrown. */
  async rowsOf(route: VoiceRoute): Promise<VoiceRow[]> {
    const [g] = await this.catalogue.groups([this.slotOf(route)]);
    if (g.state === "ready" || g.state === "empty") return g.voices;
    throw new VoiceProviderError(g.reason, 0, true, g.state === "starting" ? "unreachable" : g.state);
  }

  /**
   * The route of a caller's pick, checked before anything is said: a provider this caller cannot
   * use, or a voice that is not one of the routed engine's (400 `unknown_voice`; naming the
   * provider it belongs to when it is another's: one provider's id never goes through another's
   * engine). A provider failing its voice list does not refuse: speech will fall back.
   */
  async checkPick(pick: VoicePick): Promise<VoiceRoute> {
    const route = await this.route(pick);
    if (!pick.voice) return route;
    let rows: VoiceRow[];
    try {
      rows = await this.rowsOf(route);
    } catch (err) {
      if (route.origin === "user") return route; // the call itself will fall back, with the notice
      throw new ApiError(
        502,
        "tts_failed",
        `The voice engine (${route.label}) could not list its voices: ${failureOf(err, route.label).reason}`,
      );
    }
    if (rows.some((r) => r.id === pick.voice)) return route;
    const shown = JSON.stringify(pick.voice.slice(0, 60));
    for (const other of this.o.providers) {
      if (other.id === route.provider || !other.boxEngine || !other.boxEngine.ready || !other.local) continue;
      const theirs = await Promise.resolve(other.boxEngine.voices()).catch(() => [] as VoiceRow[]);
      if (theirs.some((r) => r.id === pick.voice && this.mayUse(pick.subject, other.id, r.id))) {
        throw new ApiError(
          400,
          "unknown_voice",
          `voice ${shown} is a ${other.label} voice; ${route.label} cannot speak it. Send voice_provider "${other.id}" with it.`,
        );
      }
    }
    throw new ApiError(400, "unknown_voice", `voice ${shown} is not a voice of ${route.label}.`);
  }

  /**
   * Checks a person's key with its provider (the provider's cheapest call), at most once per
   * `retryMs` per key. Answers the route that will speak (the box's, with the notice, on failure).
   */
  verify(route: VoiceRoute, subject: string | null): Promise<VoiceRoute> {
    return this.health.verify(route, subject);
  }

  /** After a call on `route`: a person's account that failed is remembered (and the notice set). */
  failed(route: VoiceRoute, err: unknown, subject: string | null): VoiceRoute {
    return this.health.failed(route, err, subject);
  }

  /** After a call on `route` worked: a person's account that was failing is well again. */
  succeeded(route: VoiceRoute, subject: string | null): void {
    this.health.succeeded(route, subject);
  }

  /** The notice a caller would get now (readiness, catalogue, chat bodies). */
  async noticeFor(subject: string): Promise<string> {
    try {
      const r = await this.route({ subject });
      if (r.notice) this.health.announce(subject, r.notice);
      return r.notice;
    } catch {
      return "";
    }
  }

  /** Calls `listener` whenever `subject`'s notice changes (a socket's `voice_notice`/`warning`). */
  onNotice(subject: string, listener: (notice: string) => void): () => void {
    return this.health.onNotice(subject, listener);
  }

  private keyedEngine(p: ProviderEntry, key: string): VoiceEngine {
    const k = `${p.id}\u0000${key}`;
    let e = this.keyed.get(k);
    if (!e) {
      e = p.withKey!(key);
      if (this.keyed.size > 256) this.keyed.clear();
      this.keyed.set(k, e);
    }
    return e;
  }
}
