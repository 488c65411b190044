// A local server speaking ElevenLabs' key-check endpoint (docs/providers.md 1.1, 1.6, 1.7):
// `GET /v1/user` authenticated by the `xi-api-key` header. One key is accepted (200 + user JSON),
// an optional scoped key answers 401 `missing_permissions` (a valid key without `user_read`),
// every other key 401 `invalid_api_key`. `hang` accepts requests and never answers.
import { sendJson, startFakeHttp, type FakeHttp } from "./fake-http.ts";

export interface FakeElevenLabsOptions {
  acceptedKey: string;
  scopedKey?: string;
  hang?: boolean;
  /** Answer /v1/user with this status instead (429 `too_many_concurrent_requests`, 500 ...). */
  failWith?: number;
}

export type FakeElevenLabs = FakeHttp & { options: FakeElevenLabsOptions };

export async function startFakeElevenLabs(options: FakeElevenLabsOptions): Promise<FakeElevenLabs> {
  const opts = { ...options };
  const http = await startFakeHttp(
    (req, res) => {
      if (req.path !== "/v1/user") return sendJson(res, 404, { detail: "Not Found" });
      if (req.method !== "GET") return sendJson(res, 405, { detail: "Method Not Allowed" });
      if (opts.failWith === 429) {
        return sendJson(res, 429, { detail: { status: "system_busy", message: "We are experiencing heavy traffic, please try again." } });
      }
      if (opts.failWith) return sendJson(res, opts.failWith, { detail: { status: "internal_error", message: "Internal error." } });
      const key = req.headers["xi-api-key"];
      if (typeof key === "string" && key === opts.acceptedKey) {
        return sendJson(res, 200, {
          user_id: "fake-user-1",
          subscription: { tier: "free", character_count: 0, character_limit: 10000, status: "free" },
          is_new_user: false,
          xi_api_key: key,
          can_use_delayed_payment_methods: false,
          first_name: "Fake",
        });
      }
      if (typeof key === "string" && opts.scopedKey !== undefined && key === opts.scopedKey) {
        return sendJson(res, 401, {
          detail: {
            status: "missing_permissions",
            message: "The API key you used is missing the permission user_read to execute this operation.",
          },
        });
      }
      sendJson(res, 401, { detail: { status: "invalid_api_key", message: "Invalid API key" } });
    },
    () => opts.hang === true,
  );
  return Object.assign(http, { options: opts });
}
