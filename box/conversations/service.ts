// Implements: Resources: Conversation; GET/DELETE /conversations...; POST /api/chat/reset.
import { randomBytes } from "node:crypto";
import { ApiError } from "../../shared/errors/api-error.ts";
import { type CursorCodec, pageLimit } from "./cursor.ts";
import type { ConversationStore, ConversationRow } from "./store.ts";
import { isSafeConversationId, type TranscriptFiles, type TranscriptTurn } from "./transcripts.ts";

export interface ConversationListRow {
  id: string;
  title: string;
  preview: string;
  turns: number;
  created_at: number;
  updated_at: number;
}

const listRow = (r: ConversationRow): ConversationListRow => ({
  id: r.id,
  title: r.title,
  preview: r.preview,
  turns: r.turns,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

const clip = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1).trimEnd() + "…");
const notFound = () => new ApiError(404, "conversation_not_found", "No such conversation.");

export const newConversationId = () => "conv_" + randomBytes(12).toString("base64url");

export class ConversationService {
  constructor(
    private readonly store: ConversationStore,
    private readonly transcripts: TranscriptFiles,
    private readonly cursors: CursorCodec,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async list(subject: string, rawLimit: string | null, cursor: string | null) {
    const limit = pageLimit(rawLimit);
    const after = cursor ? this.cursors.decode(subject, cursor) : null;
    const rows = await this.store.page(subject, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next_cursor = rows.length > limit && last ? this.cursors.encode(subject, { updatedAt: last.updatedAt, id: last.id }) : null;
    return { items: page.map(listRow), next_cursor };
  }

  async read(subject: string, id: string) {
    if (!isSafeConversationId(id)) throw notFound();
    const row = await this.store.get(subject, id);
    if (!row) throw notFound();
    const turns = await this.transcripts.read(id);
    if (!turns) return { id, turns: [], transcript_unavailable: true };
    return { ...listRow(row), turns: turns.map((t) => ({ role: t.role, text: t.text, ts: t.ts, tone: null })) };
  }

  /** Index row first, then the transcript (best effort); nothing is retained. */
  async delete(subject: string, id: string) {
    if (!isSafeConversationId(id) || !(await this.store.delete(subject, id))) throw notFound();
    await this.transcripts.remove(id).catch(() => undefined);
    return { ok: true as const, id };
  }

  /** Starts a new conversation for this credential; its row appears with the first turn. */
  async reset(subject: string): Promise<string> {
    const id = newConversationId();
    await this.store.setCurrent(subject, id);
    return id;
  }

  /** The last `n` turns of the credential's current conversation (the model's history). */
  async recentTurns(subject: string, n: number): Promise<TranscriptTurn[]> {
    const id = await this.store.current(subject);
    if (!id || !(await this.store.get(subject, id))) return [];
    return ((await this.transcripts.read(id)) ?? []).slice(-n);
  }

  /** Appends turns to the credential's current conversation (the turn engine's writer). */
  async appendTurns(subject: string, turns: TranscriptTurn[]): Promise<string> {
    if (turns.length === 0) throw new Error("no turns to append");
    let id = await this.store.current(subject);
    if (!id) id = await this.reset(subject);
    const firstUser = turns.find((t) => t.role === "user") ?? turns[0];
    await this.transcripts.append(id, turns);
    await this.store.recordTurns(subject, id, turns.length, clip(firstUser.text, 80), clip(turns[turns.length - 1].text, 160), this.now());
    return id;
  }
}
