// Implements: Loaded avatars (GET /api/avatars), Video row (GET /api/videos), the stills of
// GET /api/avatar/preview, and fact 8 for avatars. Stock faces are drawn by our code and seen by
// everyone; uploaded faces (own/) are seen by their uploader's credential subject only, beside
// the stock ones. Each tone is a variant: the same face with that tone's resting expression.
import { ApiError } from "../../shared/errors/api-error.ts";
import { TONES, isTone, parseVariantId, variantId, type Tone } from "../../shared/wire/tones.ts";
import type { FaceRenderer } from "../render/face-renderer.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import type { FrameSources } from "./frame-source.ts";
import { currentCaller } from "./own/caller.ts";
import type { OwnAvatars, OwnEntry } from "./own/own-avatars.ts";
import { loadStockFaces, renderStillPng, type StockFace } from "./stock/index.ts";

export interface ResolvedAvatar {
  avatarId: string;
  tone: Tone;
  variant: string;
  /** The still (a video: the first frame of the loop this tone plays). */
  face: PreparedFace;
  /**
   * A video face's idle loops (the base video's and one per `take__<tone>`): the live session
   * plays them instead of a synthetic idle. Absent for photos and stock faces.
   */
  frames?: FrameSources;
  /** Credential subject of the uploader; absent for a stock face. */
  owner?: string;
  /** `gesture_amplitude` of an uploaded face (1 = the stock faces' motion); absent means 1. */
  gestureAmplitude?: number;
}

const notLoaded = (id: string, what = "") =>
  new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" is loaded on this box${what}.`);

export class AvatarRegistry {
  private readonly faces: Map<string, StockFace>;
  private readonly stills = new Map<string, Promise<Uint8Array>>();
  private readonly defaultId: string;
  private activeVariant: string;
  /** Uploader of the active variant (null: a stock face). */
  private activeOwner: string | null = null;

  private constructor(
    faces: StockFace[],
    private readonly renderer: FaceRenderer,
    readonly own: OwnAvatars | null,
  ) {
    this.faces = new Map(faces.map((f) => [f.id, f]));
    this.defaultId = faces[0].id;
    this.activeVariant = this.defaultId;
    own?.onChange((owner, id) => {
      for (const k of this.stills.keys()) if (k.startsWith(`${owner}\n${id}\n`)) this.stills.delete(k);
    });
  }

  static async load(renderer: FaceRenderer, own: OwnAvatars | null = null): Promise<AvatarRegistry> {
    const faces = await loadStockFaces(renderer.width);
    if (faces.length === 0) throw new Error("no stock faces could be drawn");
    return new AvatarRegistry(faces, renderer, own);
  }

  /**
   * The active variant: what a session plays when nobody names an avatar. Seen per caller: an
   * uploaded face is active only for its uploader; anyone else sees the default stock face.
   */
  get active(): string {
    if (this.activeOwner === null) return this.activeVariant;
    const caller = currentCaller();
    return caller === this.activeOwner && this.resolveFor(caller, this.activeVariant) ? this.activeVariant : this.defaultId;
  }

  set active(variant: string) {
    const caller = currentCaller();
    const own = caller !== null && !this.stock(variant) ? this.resolveFor(caller, variant) : null;
    this.activeVariant = variant;
    this.activeOwner = own?.owner ?? (this.stock(variant) ? null : "\n");
  }

  get activeGroup(): string {
    return parseVariantId(this.active).avatarId;
  }

  /**
   * A variant as the current caller may see it named: an uploaded face only to its uploader,
   * anyone else the default stock face in the same tone (as `active` does).
   */
  shownAs(avatar: ResolvedAvatar, variant: string): string {
    if (avatar.owner === undefined || avatar.owner === currentCaller()) return variant;
    const { tone } = parseVariantId(variant);
    return variantId(parseVariantId(this.defaultId).avatarId, isTone(tone) ? tone : "neutral");
  }

  private stock(id: string): StockFace | undefined {
    return this.faces.get(parseVariantId(id).avatarId);
  }

  /** A variant id (`<id>` or `<id>__<tone>`) to its face as the current request's caller sees it, or null. */
  resolve(id: string): ResolvedAvatar | null {
    return this.resolveFor(currentCaller(), id);
  }

  /** As `resolve`, for an explicit caller (null: stock faces only). */
  resolveFor(subject: string | null, id: string): ResolvedAvatar | null {
    const { avatarId, tone } = parseVariantId(id);
    if (!isTone(tone)) return null;
    const stock = this.faces.get(avatarId);
    if (stock) return { avatarId, tone, variant: variantId(avatarId, tone), face: stock.face };
    const entry = subject !== null ? this.own?.get(subject, avatarId) : null;
    if (!entry?.face || entry.manifest.state !== "ready" || !entry.manifest.tones.includes(tone)) return null;
    const m = entry.manifest;
    const frames = entry.loops ?? undefined;
    const face = frames?.takes[tone]?.still ?? entry.face;
    return {
      avatarId,
      tone,
      variant: variantId(avatarId, tone),
      face,
      ...(frames ? { frames } : {}),
      owner: m.owner,
      gestureAmplitude: m.gesture_amplitude ?? 1,
    };
  }

  require(id: string): ResolvedAvatar {
    return this.requireFor(currentCaller(), id);
  }

  /** As `require`, for an explicit caller; 404 `unknown_avatar` says when the face is still being prepared. */
  requireFor(subject: string | null, id: string): ResolvedAvatar {
    const r = this.resolveFor(subject, id);
    if (r) return r;
    const entry = subject !== null ? this.own?.get(subject, parseVariantId(id).avatarId) : null;
    if (entry?.manifest.state === "preparing") throw notLoaded(id, ": it is still being prepared, try again shortly");
    if (entry?.manifest.state === "failed") throw notLoaded(id, `: it could not be prepared (${entry.manifest.detail})`);
    throw notLoaded(id);
  }

  /** The caller's uploaded avatars (none outside a request). */
  private ownOf(subject: string | null): OwnEntry[] {
    return subject !== null && this.own ? this.own.of(subject) : [];
  }

  loaded(subject: string | null = currentCaller()) {
    const stock = [...this.faces.values()].map((f) => ({
      id: f.id,
      label: f.label,
      variants: TONES.map((t) => variantId(f.id, t)),
      tones: [...TONES] as string[],
      preview: f.id,
      stock: true,
    }));
    const own = this.ownOf(subject);
    const uploaded = own
      .filter((e) => e.face && e.manifest.state === "ready")
      .map(({ manifest: m }) => ({
        id: m.avatar_id,
        label: m.name,
        variants: m.tones.map((t) => variantId(m.avatar_id, t as Tone)),
        tones: [...m.tones],
        preview: m.avatar_id,
        stock: false,
      }));
    const groups = [...stock, ...uploaded];
    const active = this.active;
    return {
      avatars: groups.flatMap((g) => g.variants),
      groups,
      preparing: own
        .filter((e) => e.manifest.state === "preparing")
        .flatMap(({ manifest: m }) => m.tones.map((t) => variantId(m.avatar_id, t as Tone))),
      active,
      active_group: parseVariantId(active).avatarId,
      builds: Object.fromEntries(own.map(({ manifest: m }) => [m.avatar_id, m.builds])) as Record<string, unknown>,
    };
  }

  videos(subject: string | null = currentCaller()) {
    const active = this.active;
    const stock = [...this.faces.values()].flatMap((f) =>
      TONES.map((t) => {
        const id = variantId(f.id, t);
        return {
          id,
          status: "ready",
          kind: "stock",
          bytes: null as number | null,
          identity: f.id,
          emotion: t as string,
          active: id === active,
          deletable: false,
          registry_note: null,
        };
      }),
    );
    const own = this.ownOf(subject).flatMap(({ manifest: m }) =>
      m.tones.map((t) => {
        const id = variantId(m.avatar_id, t as Tone);
        return {
          id,
          status: m.state as string,
          kind: m.source_kind as string,
          bytes: m.source_bytes as number | null,
          identity: m.avatar_id,
          emotion: t,
          active: id === active,
          deletable: true,
          registry_note: null,
        };
      }),
    );
    return { videos: [...stock, ...own], active };
  }

  /** PNG still of a variant, rendered once and kept; 404s say unknown apart from not yet prepared. */
  preview(id: string, subject: string | null = currentCaller()): Promise<Uint8Array> {
    const r = this.resolveFor(subject, id);
    if (!r) {
      const entry = subject !== null ? this.own?.get(subject, parseVariantId(id).avatarId) : null;
      const state = entry?.manifest.state;
      if (entry && state !== "ready" && entry.manifest.tones.includes(parseVariantId(id).tone)) {
        const err =
          state === "preparing"
            ? new ApiError(
                404,
                "avatar_not_ready",
                `The avatar "${id.slice(0, 80)}" is still being prepared; its preview comes when it is ready (try again in a few seconds).`,
              )
            : new ApiError(
                404,
                "avatar_failed",
                `The avatar "${id.slice(0, 80)}" could not be prepared, so it has no preview: ${entry.manifest.detail}`,
              );
        return Promise.reject(err);
      }
      return Promise.reject(
        new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" is loaded on this box; nothing to preview.`),
      );
    }
    const key = r.owner ? `${r.owner}\n${r.avatarId}\n${r.tone}` : r.variant;
    let png = this.stills.get(key);
    if (!png) {
      // A tone with its own take already wears its expression: its still is rendered at rest.
      const ownTake = r.frames?.takes[r.tone] !== undefined;
      png =
        r.owner && r.tone === "neutral" && !ownTake
          ? this.ownPreview(r)
          : renderStillPng(this.renderer, r.face, ownTake ? "neutral" : r.tone);
      png.catch(() => this.stills.delete(key));
      this.stills.set(key, png);
    }
    return png;
  }

  /** The neutral still written at preparation (what is on disk), else rendered now. */
  private async ownPreview(r: ResolvedAvatar): Promise<Uint8Array> {
    return (await this.own!.store.readPreview(r.owner!, r.avatarId)) ?? renderStillPng(this.renderer, r.face, r.tone);
  }
}
