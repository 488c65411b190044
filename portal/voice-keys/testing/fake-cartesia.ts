// A local server speaking Cartesia's key-check endpoint (docs/providers.md 2.1, 2.6, 2.7, 2.8):
// `GET /voices?limit=N` with a `Cartesia-Version` header, authenticated by `X-API-Key` or
// `Authorization: Bearer` (the server accepts both). One key is accepted (200, a cursor page of
// voices), every other key 401: JSON from version 2026-03-01 on, plain `Title: Message` text before.
// `GET /` answers `{ok, version}` without auth. `hang` accepts requests and never answers.
import { sendJson, sendText, startFakeHttp, type FakeHttp } from "./fake-http.ts";

export interface FakeCartesiaOptions {
  acceptedKey: string;
  hang?: boolean;
  failWith?: number;
}

export type FakeCartesia = FakeHttp & { options: FakeCartesiaOptions };

const LATEST_VERSION = "2026-03-01";
const VOICES = [
  { id: "a0e99841-438c-4a64-b679-ae501e7d6091", name: "Katie", description: "Friendly narrator", language: "en", gender: "feminine" },
  { id: "b7d50908-b17c-442d-ad8d-810c63997ed9", name: "Pedro", description: "Calm reader", language: "es", gender: "masculine" },
].map((v) => ({ ...v, is_public: true, is_owner: false, created_at: "2025-01-01T00:00:00Z", country: null, preview_file_url: null }));

function refuse(res: Parameters<typeof sendJson>[0], version: string, status: number, title: string, message: string) {
  if (version >= "2026-03-01") {
    return sendJson(res, status, { error_code: null, title, message, request_id: "00000000-0000-4000-8000-000000000000" });
  }
  sendText(res, status, `${title}: ${message}`);
}

export async function startFakeCartesia(options: FakeCartesiaOptions): Promise<FakeCartesia> {
  const opts = { ...options };
  const http = await startFakeHttp(
    (req, res) => {
      if (req.path === "/" && req.method === "GET") return sendJson(res, 200, { ok: true, version: LATEST_VERSION });
      if (req.path !== "/voices") return sendText(res, 404, "Not Found: no such route");
      if (req.method !== "GET") return sendText(res, 405, "Method Not Allowed: use GET");
      const version = req.headers["cartesia-version"];
      if (typeof version !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
        return sendText(res, 400, "Bad Request: the Cartesia-Version header is required (YYYY-MM-DD)");
      }
      if (opts.failWith)
        return refuse(res, version, opts.failWith, opts.failWith === 429 ? "Too many requests" : "Internal error", "Try again later.");
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
      const key = typeof req.headers["x-api-key"] === "string" ? req.headers["x-api-key"] : bearer;
      if (key !== opts.acceptedKey) return refuse(res, version, 401, "Unauthorized", "Invalid API key");
      const limit = Math.min(100, Math.max(1, Number(req.query.get("limit") ?? 10) || 10));
      const data = VOICES.slice(0, limit);
      sendJson(res, 200, { data, has_more: VOICES.length > limit, next_page: VOICES.length > limit ? data[data.length - 1].id : null });
    },
    () => opts.hang === true,
  );
  return Object.assign(http, { options: opts });
}
