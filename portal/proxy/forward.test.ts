// One host: box paths are forwarded byte for byte, streaming, without the portal's cookie; a 403
// from the box leaves as 409 with the same body (fact 9), except clip generation's consent_required.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";

let upstream: Server;
let portal: TestPortal;
let releaseChat: () => void = () => {};
let seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
    if (req.url === "/api/forbidden") {
      res
        .writeHead(403, { "content-type": "application/json", "x-box": "yes" })
        .end(JSON.stringify({ error: { code: "gpu_type_owner_only", message: "no" } }));
    } else if (req.url === "/api/avatar/clips/retry") {
      res
        .writeHead(403, { "content-type": "application/json", "x-box": "yes" })
        .end(JSON.stringify({ error: { code: "consent_required", message: "no consent" } }));
    } else if (req.url === "/api/chat") {
      res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
      res.write('{"type":"reply_chunk","text":"Hel');
      // The rest is written only once the test has read the first part through the portal.
      new Promise<void>((r) => (releaseChat = r)).then(() => res.end('lo"}\n{"type":"reply","reply":"Hello"}\n'));
    } else {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", path: req.url }));
    }
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  portal = await createTestPortal({ boxUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await portal.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

describe("forwarding box paths", () => {
  it("forwards each box path with its query and method", async () => {
    for (const path of [
      "/health",
      "/api/avatars?x=1",
      "/v1/streaming.create_token",
      "/connect",
      "/offer",
      "/disconnect",
      "/conversations?limit=2",
      "/conversations/abc",
    ]) {
      const res = await portal.app.request(path, { method: path === "/health" ? "GET" : "POST" });
      expect(res.status).toBe(200);
      expect((await res.json()).path).toBe(path);
    }
  });

  it("rewrites a 403 to 409 with the same body and headers", async () => {
    const res = await portal.app.request("/api/forbidden");
    expect(res.status).toBe(409);
    expect(res.headers.get("x-box")).toBe("yes");
    expect(await res.json()).toEqual({ error: { code: "gpu_type_owner_only", message: "no" } });
  });

  it("passes clip generation's consent_required through as 403 (the spec's one listed 403)", async () => {
    const res = await portal.app.request("/api/avatar/clips/retry", { method: "POST", body: "{}" });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-box")).toBe("yes");
    expect(await res.json()).toEqual({ error: { code: "consent_required", message: "no consent" } });
  });

  it("passes bodies and credentials through, but never the portal session cookie", async () => {
    seen = [];
    const res = await portal.app.request("/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "ak_box", cookie: "portal_session=secret.value; theme=dark" },
      body: JSON.stringify({ model: "m" }),
    });
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: "POST", body: '{"model":"m"}' });
    expect(seen[0].headers["x-api-key"]).toBe("ak_box");
    expect(seen[0].headers.cookie).toBe("theme=dark");
  });

  it("streams NDJSON as it comes", async () => {
    const res = await portal.app.request("/api/chat", { method: "POST", body: "{}" });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('{"type":"reply_chunk","text":"Hel');
    releaseChat();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(rest).toBe('lo"}\n{"type":"reply","reply":"Hello"}\n');
  });

  it("does not forward /auth/* or unknown paths", async () => {
    seen = [];
    expect((await portal.app.request("/auth/keys")).status).toBe(401);
    const res = await portal.app.request("/elsewhere");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect(seen).toEqual([]);
  });

  it("answers 502 when the box does not answer", async () => {
    const dead = await createTestPortal({ boxUrl: "http://127.0.0.1:1" });
    try {
      const res = await dead.app.request("/health");
      expect(res.status).toBe(502);
      expect((await res.json()).error.code).toBe("box_unreachable");
    } finally {
      await dead.close();
    }
  });
});
