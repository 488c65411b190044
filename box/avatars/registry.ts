// Implements: Loaded avatars (GET /api/avatars), Video row (GET /api/videos), the stills of
// GET /api/avatar/preview. Stock faces are drawn by our code; each tone is a variant.
import { ApiError } from "../../shared/errors/api-error.ts";
import { TONES, isTone, parseVariantId, variantId, type Tone } from "../../shared/wire/tones.ts";
import type { FaceRenderer } from "../render/face-renderer.ts";
import type { PreparedFace } from "../render/prepared-face.ts";
import { loadStockFaces, renderStillPng, type StockFace } from "./stock/index.ts";

export interface ResolvedAvatar {
  avatarId: string;
  tone: Tone;
  variant: string;
  face: PreparedFace;
}

export class AvatarRegistry {
  private readonly faces: Map<string, StockFace>;
  private readonly stills = new Map<string, Promise<Uint8Array>>();
  /** The active variant: what a session plays when nobody names an avatar. */
  active: string;

  private constructor(faces: StockFace[], private readonly renderer: FaceRenderer) {
    this.faces = new Map(faces.map((f) => [f.id, f]));
    this.active = faces[0].id;
  }

  static async load(renderer: FaceRenderer): Promise<AvatarRegistry> {
    const faces = await loadStockFaces(renderer.width);
    if (faces.length === 0) throw new Error("no stock faces could be drawn");
    return new AvatarRegistry(faces, renderer);
  }

  /** A variant id (`<id>` or `<id>__<tone>`) to its face, or null when unknown. */
  resolve(id: string): ResolvedAvatar | null {
    const { avatarId, tone } = parseVariantId(id);
    const stock = this.faces.get(avatarId);
    if (!stock || !isTone(tone)) return null;
    return { avatarId, tone, variant: variantId(avatarId, tone), face: stock.face };
  }

  require(id: string): ResolvedAvatar {
    const r = this.resolve(id);
    if (!r) throw new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" is loaded on this box.`);
    return r;
  }

  get activeGroup(): string {
    return parseVariantId(this.active).avatarId;
  }

  loaded() {
    const groups = [...this.faces.values()].map((f) => ({
      id: f.id,
      label: f.label,
      variants: TONES.map((t) => variantId(f.id, t)),
      tones: [...TONES],
      preview: f.id,
      stock: true,
    }));
    return {
      avatars: groups.flatMap((g) => g.variants),
      groups,
      preparing: [] as string[],
      active: this.active,
      active_group: this.activeGroup,
      builds: {} as Record<string, unknown>,
    };
  }

  videos() {
    const videos = [...this.faces.values()].flatMap((f) =>
      TONES.map((t) => {
        const id = variantId(f.id, t);
        return { id, status: "ready", kind: "stock", bytes: null, identity: f.id, emotion: t, active: id === this.active, deletable: false, registry_note: null };
      }),
    );
    return { videos, active: this.active };
  }

  /** PNG still of a variant, rendered once and kept. */
  preview(id: string): Promise<Uint8Array> {
    const r = this.resolve(id);
    if (!r) return Promise.reject(new ApiError(404, "unknown_avatar", `No avatar "${id.slice(0, 80)}" is loaded on this box; nothing to preview.`));
    let png = this.stills.get(r.variant);
    if (!png) {
      png = renderStillPng(this.renderer, r.face, r.tone);
      png.catch(() => this.stills.delete(r.variant));
      this.stills.set(r.variant, png);
    }
    return png;
  }
}
