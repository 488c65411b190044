// Implements: Endpoints `POST /auth/portraits`, `GET /auth/portraits/{id}`,
// `POST /auth/portraits/{id}/approve`, `POST /auth/portraits/{id}/regenerate`. A portrait's bytes
// are written once under a fresh id and never replaced; approving records an upload attestation
// bound to their digest, so the studio can upload exactly those bytes to a box (`POST /api/avatar`
// with `consent_token` = the attestation's id) in one step. Nothing is stored when generation fails.
import { portraitImageKey } from "../../shared/asset-layout/asset-keys.ts";
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import { opaqueId, type UploadAttestation } from "../consent/schema.ts";
import type { PortraitRow } from "../db/schema.ts";
import { isObject } from "../avatars/schema.ts";
import { UNREADABLE } from "../http/read-body.ts";
import { isServed, type AssetStore } from "../storage/asset-store.ts";
import type { PortraitGenerator } from "./generator.ts";
import { addressablePortraitId, parseDescription, parseDigest, portraitId, portraitNotFound, type PortraitApproval } from "./schema.ts";
import type { PortraitContentType, PortraitRecord } from "../../shared/wire/portraits.ts";
import type { PortraitStore } from "./store.ts";

export interface PortraitServiceOptions {
  store: PortraitStore;
  /** Where the bytes live (the portal's asset store). */
  assets: AssetStore;
  generator: PortraitGenerator;
  /** Epoch seconds. */
  now: () => number;
  /** Reads objects of a store the portal does not serve itself (S3), through a short-lived URL. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  log?: (msg: string, err?: unknown) => void;
}

export interface OpenedPortrait {
  record: PortraitRecord;
  bytes(): Promise<Uint8Array>;
}

/** How many times a regeneration asks again when the generator hands back the old bytes. */
const FRESH_TRIES = 3;

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function toRecord(row: PortraitRow): PortraitRecord {
  return {
    portrait_id: row.portraitId,
    description: row.description,
    sha256: row.sha256,
    content_type: row.contentType as PortraitContentType,
    width: row.width,
    height: row.height,
    size_bytes: row.sizeBytes,
    generator: row.generator as PortraitRecord["generator"],
    created_at: row.createdAt,
    approved_at: row.approvedAt,
    consent_id: row.consentId,
    regenerated_from: row.regeneratedFrom,
    url: `/auth/portraits/${row.portraitId}`,
  };
}

function toConsent(row: PortraitRow): UploadAttestation {
  return { consent_id: row.consentId!, sha256: row.sha256, attested_at: row.approvedAt!, source_kind: "image" };
}

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/** A body that must be a JSON object when sent at all. */
function objectBody(raw: unknown, shape: string, required: boolean): Record<string, unknown> {
  if (raw === undefined && !required) return {};
  if (raw === UNREADABLE || !isObject(raw)) throw new ApiError(400, "invalid_body", `The request body must be a JSON object: ${shape}.`);
  return raw;
}

export class PortraitService {
  constructor(private readonly o: PortraitServiceOptions) {}

  /** The owner's portraits and their history (regenerations are rows of their own), newest first. */
  async list(owner: string): Promise<PortraitRecord[]> {
    return (await this.o.store.list(owner)).map(toRecord);
  }

  /** `{description}` → a new portrait. */
  async create(owner: string, raw: unknown): Promise<PortraitRecord> {
    const body = objectBody(raw, "{description}", true);
    return this.produce(owner, parseDescription(body.description), null);
  }

  /** `{description?}` (absent: the old one) → a new portrait under a new id; the old one is untouched. */
  async regenerate(owner: string, rawId: string, raw: unknown): Promise<PortraitRecord> {
    const id = addressablePortraitId(rawId);
    if (id === null) throw portraitNotFound();
    const body = objectBody(raw, "{description?}", false);
    const description = body.description === undefined || body.description === null ? null : parseDescription(body.description);
    const old = await this.o.store.get(owner, id);
    if (!old) throw portraitNotFound();
    return this.produce(owner, description ?? old.description, old);
  }

  /** The record, and a reader of the exact stored bytes (checked against the recorded digest). */
  async open(owner: string, rawId: string): Promise<OpenedPortrait> {
    const id = addressablePortraitId(rawId);
    const row = id === null ? null : await this.o.store.get(owner, id);
    if (!row) throw portraitNotFound();
    return {
      record: toRecord(row),
      bytes: async () => {
        const bytes = await this.read(row.storageKey);
        if ((await sha256Hex(bytes)) !== row.sha256) {
          this.o.log?.(`portal: portrait ${row.portraitId} no longer matches its digest in the media store`);
          throw new ApiError(502, "asset_store_failed", "The stored portrait no longer matches its digest; it cannot be served.");
        }
        return bytes;
      },
    };
  }

  /**
   * `{sha256}` of the bytes the person looked at. Checked in this order: the id (404), the body
   * (400), yours (404), the digest (409, refused in place of a 403). Approving again answers the
   * same attestation.
   */
  async approve(owner: string, rawId: string, raw: unknown): Promise<PortraitApproval> {
    const id = addressablePortraitId(rawId);
    if (id === null) throw portraitNotFound();
    const sha256 = parseDigest(objectBody(raw, "{sha256}", true).sha256);
    const row = await this.o.store.get(owner, id);
    if (!row) throw portraitNotFound();
    if (row.sha256 !== sha256) {
      throw new ApiError(
        409,
        "portrait_digest_mismatch",
        "That digest is not the digest of this portrait's bytes: fetch GET /auth/portraits/{id} again and approve what you see (its X-Portrait-Sha256 header).",
      );
    }
    const approved = row.consentId ? row : await this.o.store.approve(owner, id, sha256, opaqueId("uc_"), this.o.now());
    if (!approved?.consentId) throw portraitNotFound();
    return { portrait: toRecord(approved), consent: toConsent(approved) };
  }

  private async produce(owner: string, description: string, from: PortraitRow | null): Promise<PortraitRecord> {
    let made = await this.generate(description);
    let sha256 = await sha256Hex(made.bytes);
    // A regeneration is a fresh variation: never the bytes it replaces.
    for (let tries = 1; from && sha256 === from.sha256 && tries < FRESH_TRIES; tries++) {
      made = await this.generate(description);
      sha256 = await sha256Hex(made.bytes);
    }
    const id = portraitId();
    const ext = made.contentType === "image/png" ? "png" : "jpg";
    const key = await portraitImageKey(owner, id, ext);
    try {
      await this.o.assets.put(key, made.bytes, made.contentType);
    } catch (err) {
      this.o.log?.(`portal: the media store did not take portrait ${id}`, err);
      await this.o.assets.delete(key).catch(() => undefined);
      throw new ApiError(502, "asset_store_failed", "The media store did not accept the portrait; nothing was kept. Try again shortly.");
    }
    const row: PortraitRow = {
      portraitId: id,
      owner,
      description,
      sha256,
      contentType: made.contentType,
      width: made.width,
      height: made.height,
      sizeBytes: made.bytes.length,
      generator: this.o.generator.kind,
      seed: made.seed,
      model: made.model,
      storageKey: key,
      createdAt: this.o.now(),
      approvedAt: null,
      consentId: null,
      regeneratedFrom: from?.portraitId ?? null,
    };
    try {
      await this.o.store.insert(row);
    } catch (err) {
      await this.o.assets.delete(key).catch(() => undefined);
      throw err;
    }
    return toRecord(row);
  }

  private async generate(description: string) {
    try {
      return await this.o.generator.generate(description, randomSeed());
    } catch (err) {
      if (err instanceof UpstreamError) {
        throw err.status === 503
          ? new ApiError(503, "portrait_generator_unavailable", err.message)
          : new ApiError(502, "portrait_generation_failed", err.message);
      }
      this.o.log?.("portal: the portrait generator failed", err);
      throw new ApiError(502, "portrait_generation_failed", "The portrait generator failed; nothing was kept. Try again shortly.");
    }
  }

  private async read(key: string): Promise<Uint8Array> {
    try {
      if (isServed(this.o.assets)) {
        const handle = await this.o.assets.open(key);
        if (!handle) throw new Error(`${key} is missing`);
        return await collect(handle.body());
      }
      const url = await this.o.assets.signedGetUrl(key, 60);
      const res = await (this.o.fetch ?? globalThis.fetch)(url);
      if (!res.ok) throw new Error(`${key}: the store answered ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      this.o.log?.("portal: could not read a portrait from the media store", err);
      throw new ApiError(502, "asset_store_failed", "The media store did not hand back the portrait; try again shortly.");
    }
  }
}

async function collect(body: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}
