// A local server speaking OpenAI's image generation endpoint over a real socket:
// `POST /v1/images/generations` with `Authorization: Bearer <key>` and a JSON body
// `{model, prompt, n, size, response_format?}`, answering `{created, data: [{b64_json}]}` with a
// real PNG (a different one per request). A wrong key gets OpenAI's 401 body
// `{error: {message, type, code}}`; `mode` can make it hang, fail with 500, or answer bytes that
// are not an image.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

export type FakeImageMode = "ok" | "hang" | "fail500" | "not_image" | "no_data";

export interface FakeImageProviderOptions {
  acceptedKey: string;
  mode?: FakeImageMode;
  /** Side of the PNG answered (default 64: small and fast). */
  size?: number;
}

export type FakeImageProvider = {
  url: string;
  close(): Promise<void>;
  options: FakeImageProviderOptions & { mode: FakeImageMode };
  /** Every request: method, path and headers. */
  requests: { method: string; path: string; headers: Record<string, string | string[] | undefined> }[];
  /** The parsed JSON bodies received, in order (null for one that did not parse). */
  bodies: (Record<string, unknown> | null)[];
  /** The PNGs answered, in order. */
  served: Uint8Array[];
};

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakeImageProvider(options: FakeImageProviderOptions): Promise<FakeImageProvider> {
  const opts = { mode: "ok" as FakeImageMode, ...options };
  const requests: FakeImageProvider["requests"] = [];
  const bodies: FakeImageProvider["bodies"] = [];
  const served: Uint8Array[] = [];
  let count = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    requests.push({ method: req.method ?? "GET", path, headers: req.headers });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (opts.mode === "hang") return; // never answers; the socket is destroyed on close
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = null;
      }
      bodies.push(body);
      if (path !== "/v1/images/generations")
        return sendJson(res, 404, openAiError(`Invalid URL (${req.method} ${path})`, "invalid_request_error", null));
      if (req.method !== "POST") return sendJson(res, 405, openAiError("Method not allowed", "invalid_request_error", null));
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
      if (bearer !== opts.acceptedKey) {
        // OpenAI shows a masked form of a wrong key in its sentence.
        const shown = bearer ? `${bearer.slice(0, 3)}${"*".repeat(Math.max(0, bearer.length - 7))}${bearer.slice(-4)}` : "";
        const message = bearer
          ? `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.";
        return sendJson(res, 401, openAiError(message, "invalid_request_error", bearer ? "invalid_api_key" : null));
      }
      if (opts.mode === "fail500")
        return sendJson(
          res,
          500,
          openAiError("The server had an error while processing your request. Sorry about that!", "server_error", null),
        );
      if (typeof body?.prompt !== "string" || body.prompt.length === 0) {
        return sendJson(
          res,
          400,
          openAiError("Missing required parameter: 'prompt'.", "invalid_request_error", "missing_required_parameter"),
        );
      }
      if (/^gpt-image/.test(String(body.model)) && "response_format" in body) {
        return sendJson(res, 400, openAiError("Unknown parameter: 'response_format'.", "invalid_request_error", "unknown_parameter"));
      }
      const created = Math.floor(Date.now() / 1000);
      if (opts.mode === "no_data") return sendJson(res, 200, { created, data: [] });
      if (opts.mode === "not_image") {
        return sendJson(res, 200, {
          created,
          data: [{ b64_json: Buffer.from("<html><body>not an image</body></html>").toString("base64") }],
        });
      }
      const n = ++count;
      const size = opts.size ?? 64;
      void sharp({ create: { width: size, height: size, channels: 3, background: { r: (n * 53) % 256, g: 120, b: 200 } } })
        .png()
        .toBuffer()
        .then((png) => {
          served.push(new Uint8Array(png));
          sendJson(res, 200, { created, data: [{ b64_json: png.toString("base64") }], usage: { total_tokens: 0 } });
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    options: opts,
    requests,
    bodies,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
