// Implements: POST /api/avatar and POST /v1/photo_avatar.create after the form is parsed: the
// tone plan, the build parameters (read only when builds are planned), ffprobe of videos, and the
// move of the checked files onto the volume. Nothing reaches the avatar's folder before every
// check passed; the files wait in the avatars folder's `.incoming/` meanwhile.
import { writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ApiError, type Envelope } from "../../../shared/errors/api-error.ts";
import type { OwnManifest, Take } from "./manifest.ts";
import type { OwnAvatars } from "./own-avatars.ts";
import { familyOf } from "./sniff.ts";
import { sha256Hex } from "./store.ts";
import { parseGestureAmplitude, planTones, type TonePlan } from "./tone-plan.ts";
import { declaredAiGenerated, type ParsedUpload } from "./upload-form.ts";
import { BadVideo, probeVideo } from "./video.ts";

export interface IntakeInput {
  subject: string;
  parsed: ParsedUpload;
  avatarId: string;
  photoAvatar: boolean;
  /** Framing values the preparer accepts (null: any non-empty value is passed on). */
  framings: readonly string[] | null;
  envelope: Envelope;
}

export interface IntakeResult {
  manifest: OwnManifest;
  plan: TonePlan;
  /** Resolves once the preparation job has run (the synchronous route waits on it). */
  done: Promise<void>;
}

const CONSENT_MAX = 256;

export async function intake(own: OwnAvatars, i: IntakeInput): Promise<IntakeResult> {
  const { parsed, subject, avatarId: id, envelope } = i;
  const bad = (message: string) => new ApiError(400, "invalid_part", message, envelope);
  const family = familyOf(parsed.file.kind);
  const aiGenerated = declaredAiGenerated(parsed.fields.ai_generated);
  const plan = planTones({
    family,
    photoAvatar: i.photoAvatar,
    aiGenerated,
    tonesField: parsed.fields.tones,
    takeTones: parsed.takes.map((t) => t.tone),
  });

  // The build parameters: read (and so checked) only when tone builds are planned.
  let framing: string | null = null;
  let gesture: number | null = null;
  let consent: string | null = null;
  if (plan.buildsPlanned) {
    framing = parsed.fields.framing?.trim().toLowerCase() || null;
    if (framing && i.framings && !i.framings.includes(framing))
      throw bad(`framing ${JSON.stringify(framing.slice(0, 40))} is not one this box knows; use one of: ${i.framings.join(", ")}.`);
    const g = parseGestureAmplitude(parsed.fields.gesture_amplitude);
    if (g === "invalid")
      throw bad("gesture_amplitude must be a number from 0 to 2 (1 is the stock faces' motion) or one of none, low, medium, normal, high.");
    gesture = g;
    consent = parsed.fields.consent_token?.trim() || null;
    if (consent && consent.length > CONSENT_MAX) throw bad(`consent_token is over ${CONSENT_MAX} characters.`);
  }

  own.claim(subject, id);
  let staging: string | null = null;
  try {
    staging = await own.store.stagingDir();
    const source = join(staging, `source.${parsed.file.ext}`);
    await writeFile(source, parsed.file.bytes);
    if (family === "video") await probed(source, `The file ${JSON.stringify(parsed.file.name.slice(0, 60))}`, envelope);
    const takes: Take[] = [];
    const stagedTakes: { from: string; name: string }[] = [];
    const used = parsed.takes.filter((t) => family === "video" && (plan.takeTones as string[]).includes(t.tone));
    if (used.length) await mkdir(join(staging, "takes"));
    for (const t of used) {
      const name = `${t.tone}__${t.n}.${t.file.ext}`;
      const from = join(staging, "takes", name);
      await writeFile(from, t.file.bytes);
      const info = await probed(from, `The take take__${t.tone}${t.n ? `__${t.n}` : ""}`, envelope);
      takes.push({
        tone: t.tone,
        n: t.n,
        file: `takes/${name}`,
        bytes: t.file.bytes.length,
        duration_s: Math.round(info.durationS * 100) / 100,
      });
      stagedTakes.push({ from, name });
    }
    const sha = sha256Hex(parsed.file.bytes);
    const previous = own.get(subject, id)?.manifest;
    await own.store.install(subject, id, { source, sourceExt: parsed.file.ext, takes: stagedTakes }, sha);
    const now = own.now();
    const manifest: OwnManifest = {
      version: 1,
      avatar_id: id,
      owner: subject,
      name: parsed.file.name.slice(0, 255),
      source_kind: family === "video" ? "video" : "photo",
      source_file: `source.${parsed.file.ext}`,
      source_bytes: parsed.file.bytes.length,
      sha256: sha,
      tones_asked: plan.asked,
      tones: plan.tones,
      note: plan.note,
      state: "preparing",
      detail: "",
      builds_planned: plan.buildsPlanned,
      consent_token: consent,
      framing,
      gesture_amplitude: gesture,
      ai_generated: aiGenerated,
      takes,
      created_at: previous?.created_at ?? now,
      updated_at: now,
      builds: previous?.builds ?? [],
    };
    const { done } = await own.commit(manifest);
    return { manifest, plan, done };
  } catch (err) {
    own.release(subject, id);
    throw err;
  } finally {
    if (staging) await own.store.discardStaging(staging);
  }
}

async function probed(path: string, what: string, envelope: Envelope) {
  try {
    return await probeVideo(path);
  } catch (err) {
    if (err instanceof BadVideo) throw new ApiError(400, "unsupported_file", `${what}: ${err.message}`, envelope);
    throw err;
  }
}
