// Integration: conversations over HTTP on the real box, two credentials, seeded transcripts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBoxDb } from "../db/client.ts";
import { ConversationService } from "./service.ts";
import { ConversationStore } from "./store.ts";
import { TranscriptFiles } from "./transcripts.ts";
import { CursorCodec } from "./cursor.ts";
import { sha256Hex } from "../auth/principal.ts";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";

const A = "conv_key_a";
const B = "conv_key_b";
const dataDir = mkdtempSync(join(tmpdir(), "box-conv-"));
let box: RunningBox;
const ids: string[] = [];

beforeAll(async () => {
  // Seed the volume the way the turn engine writes it, then start the box on it.
  const db = await openBoxDb(dataDir);
  const svc = new ConversationService(
    new ConversationStore(db.db),
    new TranscriptFiles(join(dataDir, "transcripts")),
    new CursorCodec(Buffer.alloc(32)),
  );
  for (let i = 0; i < 3; i++) {
    ids.push(
      await svc.appendTurns(`key:${sha256Hex(A)}`, [
        { role: "user", text: `question ${i}`, ts: 100 + i, tone: null },
        { role: "assistant", text: `answer ${i}`, ts: 101 + i, tone: "happy" },
      ]),
    );
    await svc.reset(`key:${sha256Hex(A)}`);
  }
  db.client.close();
  box = await spawnBox({ BOX_API_KEYS: `${A},${B}` }, { dataDir });
});
afterAll(async () => {
  await box.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (key: string, method: string, path: string) => {
  const res = await fetch(box.url + path, { method, headers: { "x-api-key": key } });
  return { status: res.status, json: (await res.json()) as any };
};

describe("conversations over HTTP", () => {
  it("lists rows with integer turns and pages with a cursor", async () => {
    const all = await call(A, "GET", "/conversations");
    expect(all.status).toBe(200);
    expect(all.json.items).toHaveLength(3);
    expect(all.json.next_cursor).toBeNull();
    expect(Object.keys(all.json.items[0]).sort()).toEqual(["created_at", "id", "preview", "title", "turns", "updated_at"]);
    expect(all.json.items[0].turns).toBe(2);
    const p1 = await call(A, "GET", "/conversations?limit=2");
    expect(p1.json.items).toHaveLength(2);
    const p2 = await call(A, "GET", `/conversations?limit=2&cursor=${encodeURIComponent(p1.json.next_cursor)}`);
    expect(p2.json.items).toHaveLength(1);
    expect(new Set([...p1.json.items, ...p2.json.items].map((r: any) => r.id))).toEqual(new Set(ids));
    expect((await call(A, "GET", "/conversations?limit=banana")).json.items).toHaveLength(3);
    // Not plain digits: the default 20 (all three rows here), not a clamp to 1.
    expect((await call(A, "GET", "/conversations?limit=-5")).json.items).toHaveLength(3);
    expect((await call(A, "GET", "/conversations?limit=%201")).json.items).toHaveLength(3);
    expect((await call(A, "GET", "/conversations?limit=0")).json.items).toHaveLength(1);
  });

  it("400 on another credential's cursor; 404 on another's conversation", async () => {
    const p1 = await call(A, "GET", "/conversations?limit=1");
    const foreign = await call(B, "GET", `/conversations?cursor=${encodeURIComponent(p1.json.next_cursor)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.json).toMatchObject({ error: expect.any(String), code: "invalid_cursor" });
    expect((await call(B, "GET", `/conversations/${ids[0]}`)).status).toBe(404);
    expect((await call(B, "DELETE", `/conversations/${ids[0]}`)).status).toBe(404);
    expect((await call(B, "GET", "/conversations")).json).toEqual({ items: [], next_cursor: null });
  });

  it("reads a transcript with turns as an array and tone always null", async () => {
    const r = await call(A, "GET", `/conversations/${ids[1]}`);
    expect(r.status).toBe(200);
    expect(r.json.turns).toEqual([
      { role: "user", text: "question 1", ts: 101, tone: null },
      { role: "assistant", text: "answer 1", ts: 102, tone: null },
    ]);
  });

  it("deletes the row and the transcript; a second delete is 404", async () => {
    expect((await call(A, "DELETE", `/conversations/${ids[2]}`)).json).toEqual({ ok: true, id: ids[2] });
    expect((await call(A, "GET", `/conversations/${ids[2]}`)).status).toBe(404);
    expect((await call(A, "DELETE", `/conversations/${ids[2]}`)).status).toBe(404);
    expect(() => readFileSync(join(dataDir, "transcripts", `${ids[2]}.jsonl`))).toThrow();
  });

  it("POST /api/chat/reset answers {ok, data:{conversation_id}}", async () => {
    const r = await call(A, "POST", "/api/chat/reset");
    expect(r.json).toEqual({ ok: true, data: { conversation_id: expect.any(String) } });
  });
});

describe("readiness and the OpenAPI document", () => {
  it("GET /api/chat/status has every field; not ready with reason naming what is down", async () => {
    const r = await call(A, "GET", "/api/chat/status");
    expect(Object.keys(r.json).sort()).toEqual(
      [
        "ready",
        "llm",
        "tts",
        "voice",
        "transcribe",
        "voice_origin",
        "voice_provider",
        "llm_state",
        "tts_state",
        "llm_detail",
        "tts_detail",
        "starting",
        "voice_notice",
        "reason",
      ].sort(),
    );
    expect(r.json.ready).toBe(r.json.llm && r.json.tts);
    expect(r.json.llm).toBe(false);
    expect(r.json.reason).toMatch(/language model/i);
    expect(r.json).toMatchObject({
      tts: true,
      tts_state: "ready",
      voice_provider: "espeak",
      voice_origin: "box",
      llm_state: "not_configured",
      starting: false,
      voice_notice: "",
    });
  });

  it("GET /openapi.json is OpenAPI 3.1 and covers the box's routes", async () => {
    const doc = (await (await fetch(box.url + "/openapi.json")).json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    const want = [
      ["get", "/health"],
      ["get", "/api/stats"],
      ["post", "/disconnect"],
      ["post", "/api/interrupt"],
      ["post", "/v1/streaming.create_token"],
      ["get", "/api/chat/status"],
      ["get", "/api/settings"],
      ["post", "/api/settings"],
      ["get", "/conversations"],
      ["get", "/conversations/{id}"],
      ["delete", "/conversations/{id}"],
      ["post", "/api/chat/reset"],
    ];
    for (const [m, p] of want) expect(doc.paths[p]?.[m], `${m} ${p}`).toBeDefined();
    expect(doc.paths["/api/settings"].post["x-policy"]).toBe("full");
  });
});
