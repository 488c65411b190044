// Transcripts as append-only JSON-lines files on the box volume, one per conversation.
import { appendFile, readFile, rm, mkdir } from "node:fs/promises";
import { join } from "node:path";

export interface TranscriptTurn {
  role: "user" | "assistant";
  text: string;
  ts: number;
  tone: string | null;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class TranscriptFiles {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`unsafe conversation id: ${id}`);
    return join(this.dir, `${id}.jsonl`);
  }

  async append(id: string, turns: TranscriptTurn[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendFile(this.path(id), turns.map((t) => JSON.stringify(t) + "\n").join(""));
  }

  /** Null when the transcript cannot be read (missing or corrupt). */
  async read(id: string): Promise<TranscriptTurn[] | null> {
    try {
      const text = await readFile(this.path(id), "utf8");
      return text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TranscriptTurn);
    } catch {
      return null;
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}

export const isSafeConversationId = (id: string) => SAFE_ID.test(id);
