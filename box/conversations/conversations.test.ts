import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { openBoxDb, type BoxDb } from "../db/client.ts";
import { ConversationService } from "./service.ts";
import { ConversationStore } from "./store.ts";
import { TranscriptFiles } from "./transcripts.ts";
import { CursorCodec, pageLimit } from "./cursor.ts";
import type { ApiError } from "../../shared/errors/api-error.ts";
import { createBoxApp } from "../app.ts";
import { Authenticator } from "../auth/principal.ts";
import { conversationRoutes } from "./routes.ts";

let dir: string;
let db: BoxDb;
let clock = 1000;
let svc: ConversationService;

beforeEach(async () => {
  clock = 1000;
  dir = mkdtempSync(join(tmpdir(), "conv-"));
  db = await openBoxDb(dir);
  svc = new ConversationService(
    new ConversationStore(db.db),
    new TranscriptFiles(join(dir, "t")),
    new CursorCodec(randomBytes(32)),
    () => clock,
  );
});
afterEach(() => {
  db.client.close();
  rmSync(dir, { recursive: true, force: true });
});

const turn = (role: "user" | "assistant", text: string) => ({ role, text, ts: clock, tone: "happy" });

describe("pageLimit", () => {
  it.each([
    [null, 20],
    ["", 20],
    ["abc", 20],
    ["7", 7],
    ["500", 50],
    ["0", 1],
    ["1e3", 20],
    ["99999999999999999999", 50],
    // Only plain digits are a number here: a sign, a space, an exponent or a fraction uses the default.
    ["-3", 20],
    ["-5", 20],
    [" 10", 20],
    ["10 ", 20],
    ["1e1", 20],
    ["10.5", 20],
    ["+10", 20],
    ["0x10", 20],
    ["１０", 20],
  ])("%j → %s", (raw, n) => {
    expect(pageLimit(raw as string | null)).toBe(n);
  });
});

describe("GET /conversations?limit= over the box app", () => {
  it.each([
    ["", 20],
    ["limit=", 20],
    ["limit=-5", 20],
    ["limit=%2010", 20],
    ["limit=10%20", 20],
    ["limit=1e1", 20],
    ["limit=10.5", 20],
    ["limit=%2B10", 20],
    ["limit=+10", 20],
    ["limit=0", 1],
    ["limit=7", 7],
    ["limit=999", 25],
  ])("?%s → %i rows", async (query, rows) => {
    for (let i = 0; i < 25; i++) {
      clock++;
      await svc.appendTurns("open", [turn("user", `m${i}`)]);
      await svc.reset("open");
    }
    const app = createBoxApp({ auth: new Authenticator([], null), allowedOrigins: [], routes: conversationRoutes(svc) });
    const res = await app.handle(new Request(`http://localhost/conversations?${query}`));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: unknown[]; next_cursor: string | null };
    expect(body.items).toHaveLength(rows);
    expect(body.next_cursor === null).toBe(rows === 25);
  });

  it("clamps 999 to 50 rows", async () => {
    for (let i = 0; i < 55; i++) {
      clock++;
      await svc.appendTurns("s1", [turn("user", `m${i}`)]);
      await svc.reset("s1");
    }
    expect((await svc.list("s1", "999", null)).items).toHaveLength(50);
    expect((await svc.list("s1", "-5", null)).items).toHaveLength(20);
  });
});

describe("ConversationService", () => {
  it("writes turns into the current conversation: list row with integer turns, title, preview", async () => {
    const id = await svc.appendTurns("s1", [turn("user", "Hello there"), turn("assistant", "Hi! How can I help?")]);
    clock++;
    await svc.appendTurns("s1", [turn("user", "Tell me a joke")]);
    const { items, next_cursor } = await svc.list("s1", null, null);
    expect(next_cursor).toBeNull();
    expect(items).toEqual([{ id, title: "Hello there", preview: "Tell me a joke", turns: 3, created_at: 1000, updated_at: 1001 }]);
    const one = await svc.read("s1", id);
    expect(one).toMatchObject({
      id,
      turns: [{ role: "user", text: "Hello there", ts: 1000, tone: null }, { role: "assistant" }, { role: "user" }],
    });
    expect((one.turns as unknown[]).length).toBe(3);
  });

  it("reset starts a new conversation; pages with an opaque cursor bound to the credential", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock++;
      ids.push(await svc.appendTurns("s1", [turn("user", `m${i}`)]));
      await svc.reset("s1");
    }
    expect(new Set(ids).size).toBe(5);
    const p1 = await svc.list("s1", "2", null);
    expect(p1.items.map((r) => r.id)).toEqual([ids[4], ids[3]]);
    const p2 = await svc.list("s1", "2", p1.next_cursor);
    expect(p2.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const p3 = await svc.list("s1", "2", p2.next_cursor);
    expect(p3.items.map((r) => r.id)).toEqual([ids[0]]);
    expect(p3.next_cursor).toBeNull();
    await expect(svc.list("s2", "2", p1.next_cursor)).rejects.toMatchObject({ status: 400 });
    await expect(svc.list("s1", "2", "garbage")).rejects.toMatchObject({ status: 400 });
  });

  it("keeps credentials apart: another's conversation is 404 on read and delete", async () => {
    const id = await svc.appendTurns("s1", [turn("user", "private")]);
    expect((await svc.list("s2", null, null)).items).toEqual([]);
    await expect(svc.read("s2", id)).rejects.toMatchObject({ status: 404 });
    await expect(svc.delete("s2", id)).rejects.toMatchObject({ status: 404 });
    await expect(svc.read("s1", "../../etc/passwd")).rejects.toMatchObject({ status: 404 });
    expect((await svc.read("s1", id)).turns).toHaveLength(1);
  });

  it("delete removes the index row then the transcript", async () => {
    const id = await svc.appendTurns("s1", [turn("user", "bye")]);
    expect(await svc.delete("s1", id)).toEqual({ ok: true, id });
    await expect(svc.read("s1", id)).rejects.toMatchObject({ status: 404 } as Partial<ApiError>);
    expect(await new TranscriptFiles(join(dir, "t")).read(id)).toBeNull();
  });

  it("reports transcript_unavailable when the row exists but the transcript cannot be read", async () => {
    const id = await svc.appendTurns("s1", [turn("user", "x")]);
    writeFileSync(join(dir, "t", `${id}.jsonl`), "{not json\n");
    expect(await svc.read("s1", id)).toEqual({ id, turns: [], transcript_unavailable: true });
  });
});
