// Implements: the signed paths of the stores the portal serves itself (`file`, `memory`):
// `GET|HEAD /auth/assets/<key>?exp=&sig=`. Public: the signature is the credential (the studio's
// <img>/<video> and a developer's plain fetch carry no session). A tampered path or expiry, a
// signature replayed on another path, an expired link and a missing object are one answer:
// 404 `asset_not_found` (fact 9: never 403; the same answer also says nothing about what exists).
// Single byte ranges are served (video elements seek with them). Mounted before the identity gate.
import { Hono, type Context } from "hono";
import { ApiError, errorBody } from "../../shared/errors/api-error.ts";
import { contentTypeOf } from "../../shared/asset-layout/asset-keys.ts";
import { methodNotAllowed } from "../http/errors.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { ServedAssetStore } from "./asset-store.ts";
import { ASSET_PATH_PREFIX, type AssetUrlSigner } from "./signed-path.ts";

const REFRESH = "ask GET /auth/avatars/{id}/assets for a fresh one";

export function signedAssetRoutes(store: ServedAssetStore, urls: AssetUrlSigner, nowSeconds: () => number): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();

  app.on(["GET", "HEAD"], `${ASSET_PATH_PREFIX}*`, async (c) => {
    const url = new URL(c.req.url);
    // The raw path: what was signed. (A decoded or normalised one would let two paths share a signature.)
    const check = await urls.check(url.pathname, url.searchParams.get("exp"), url.searchParams.get("sig"));
    if (!check.ok) {
      throw new ApiError(
        404,
        "asset_not_found",
        check.reason === "expired"
          ? `This asset link has expired; ${REFRESH}.`
          : `No asset at this link (it is not a valid signed link); ${REFRESH}.`,
      );
    }
    const handle = await store.open(check.key);
    if (!handle) throw new ApiError(404, "asset_not_found", `No asset at this link (it was erased or replaced); ${REFRESH}.`);
    const filename = check.key.slice(check.key.lastIndexOf("/") + 1);
    const headers = new Headers({
      "content-type": contentTypeOf(check.key),
      "cache-control": `private, max-age=${Math.max(0, check.expiresAt - nowSeconds())}`,
      "accept-ranges": "bytes",
      "last-modified": new Date(handle.updatedAt * 1000).toUTCString(),
      "content-disposition": `inline; filename="${filename}"`,
      "x-content-type-options": "nosniff",
    });
    const range = parseRange(c, handle.size);
    if (range === "unsatisfiable") {
      await handle.close();
      // Thrown errors have no headers; this one must carry Content-Range (RFC 9110 15.5.17).
      const err = new ApiError(416, "range_not_satisfiable", `The asset has ${handle.size} bytes.`);
      return new Response(JSON.stringify(errorBody(err, "nested")), {
        status: 416,
        headers: { "content-type": "application/json", "content-range": `bytes */${handle.size}` },
      });
    }
    const length = range ? range.end - range.start + 1 : handle.size;
    headers.set("content-length", String(length));
    if (range) headers.set("content-range", `bytes ${range.start}-${range.end}/${handle.size}`);
    const status = range ? 206 : 200;
    if (c.req.method === "HEAD" || length === 0) {
      await handle.close();
      return new Response(null, { status, headers });
    }
    return new Response(handle.body(range ?? undefined) as BodyInit, { status, headers });
  });

  app.all(`${ASSET_PATH_PREFIX}*`, methodNotAllowed);
  return app;
}

/** One `bytes=` range, clamped to the size; null for none (or one this route ignores and answers whole). */
function parseRange(c: Context, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const h = c.req.header("range");
  if (!h) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(h.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null; // several ranges or a malformed header: the whole object
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
