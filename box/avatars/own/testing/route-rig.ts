// The own-avatar routes on the real route table (createBoxApp + app.handle, no port) with a
// stand-in photo preparer, so the rules are tested fast: a rig per test file, and the two callers'
// keys. The real preparer runs in own-avatars.int.test.ts.
import { readFileSync } from "node:fs";
import { encodePng } from "../../../render/png.ts";
import type { FaceRenderer } from "../../../render/face-renderer.ts";
import { createBoxApp } from "../../../app.ts";
import { Authenticator, sha256Hex } from "../../../auth/principal.ts";
import { AvatarRegistry, type ResolvedAvatar } from "../../registry.ts";
import { avatarRoutes } from "../../routes.ts";
import { loadStockFaces } from "../../stock/index.ts";
import { withCallers } from "../caller.ts";
import { OwnAvatars, type OwnAvatarsOptions } from "../own-avatars.ts";
import type { PhotoPrepared } from "../preparers.ts";

export const SIZE = 64;
export const JPG = readFileSync(new URL("../../../../node_modules/@vladmandic/face-api/demo/sample2.jpg", import.meta.url));
export const NO_FACE = encodePng(new Uint8Array(40 * 40 * 4).fill(30), 40, 40);
export const A = "key_alpha";
export const B = "key_beta";
export const subj = (k: string) => `key:${sha256Hex(k)}`;

export class PhotoFaceError extends Error {
  override name = "PhotoFaceError";
}

export interface Rig {
  app: ReturnType<typeof createBoxApp>;
  own: OwnAvatars;
  registry: AvatarRegistry;
  dataDir: string;
  onScreen: { current: ResolvedAvatar | null };
  gate: { hold: Promise<void> | null };
}

export async function rig(dataDir: string, extra: Partial<OwnAvatarsOptions> = {}): Promise<Rig> {
  const stock = (await loadStockFaces(SIZE))[0].face;
  const gate: Rig["gate"] = { hold: null };
  const own = await OwnAvatars.open({
    dataDir,
    size: SIZE,
    // Stand-in: a "photo" whose first pixel row is dark has no face; anything else is the stock face.
    preparePhoto: async (bytes): Promise<PhotoPrepared> => {
      if (gate.hold) await gate.hold;
      if (Buffer.from(bytes).equals(Buffer.from(NO_FACE))) throw new PhotoFaceError("No face was found in the photo.");
      return { face: stock, facesFound: 1, detail: "1 face found", landmarks: [] };
    },
    isPhotoError: (e) => e instanceof PhotoFaceError,
    renderStill: async (face) => encodePng(face.i420, face.width, face.height),
    photoAvatar: true,
    framings: ["head", "face", "bust"],
    records: null,
    queueCapacity: 3,
    ...extra,
  });
  const registry = await AvatarRegistry.load({ width: SIZE } as FaceRenderer, own);
  const onScreen = { current: null as ResolvedAvatar | null };
  const routes = avatarRoutes(registry, { onScreen: () => onScreen.current });
  const app = createBoxApp({ auth: new Authenticator([A, B], null), allowedOrigins: [], routes: withCallers(routes) });
  return { app, own, registry, dataDir, onScreen, gate };
}

export function upload(r: Rig, key: string, parts: [string, string | [Uint8Array | Buffer, string]][], path = "/api/avatar") {
  const f = new FormData();
  for (const [name, v] of parts) f.append(name, typeof v === "string" ? v : new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  return call(r, key, "POST", path, f);
}

export async function call(r: Rig, key: string, method: string, path: string, body?: FormData | object) {
  const init: RequestInit = { method, headers: { "x-api-key": key } };
  if (body instanceof FormData) init.body = body;
  else if (body) (init.body = JSON.stringify(body)), ((init.headers as Record<string, string>)["content-type"] = "application/json");
  const res = await r.app.handle(new Request(`http://localhost${path}`, init));
  const type = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    json: type.includes("json") ? ((await res.json()) as Record<string, any>) : null,
    bytes: type.includes("json") ? null : new Uint8Array(await res.arrayBuffer()),
  };
}
