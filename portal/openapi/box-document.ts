// Implements: reading the running box's OpenAPI document for the reference page. The box's routes
// depend on how it was started (voices, clips), so the page shows what the running box answers at
// its public `GET /openapi.json`, kept a minute per box, never a copy that could go stale.
export interface BoxDocumentOptions {
  /** The box paths are forwarded to right now, or null. */
  boxUrl: () => string | null;
  fetch?: typeof fetch;
  /** Milliseconds since epoch. */
  now?: () => number;
  /** How long one answer is kept (ms); default 60 s. */
  keepMs?: number;
  /** How long the box may take to answer (ms); default 3 s. */
  timeoutMs?: number;
}

export type BoxDocument = { ok: true; doc: Record<string, unknown>; boxUrl: string } | { ok: false; why: string };

/** A box document is trusted only as far as its shape: an object naming OpenAPI 3.1 with `paths`. */
function looksLikeOpenApi(v: unknown): v is Record<string, unknown> & { paths: Record<string, unknown> } {
  if (typeof v !== "object" || v === null) return false;
  const d = v as { openapi?: unknown; paths?: unknown };
  return typeof d.openapi === "string" && d.openapi.startsWith("3.1") && typeof d.paths === "object" && d.paths !== null;
}

export class BoxDocumentReader {
  private kept: { base: string; at: number; answer: BoxDocument } | null = null;

  constructor(private readonly o: BoxDocumentOptions) {}

  async read(): Promise<BoxDocument> {
    const base = this.o.boxUrl();
    if (!base) return { ok: false, why: "No box is running, so its reference cannot be read. An administrator can start one (GPU page)." };
    const now = (this.o.now ?? Date.now)();
    if (this.kept && this.kept.base === base && now - this.kept.at < (this.o.keepMs ?? 60_000)) return this.kept.answer;
    const answer = await this.fetchDocument(base);
    // A failure is not kept: the next page view asks again.
    this.kept = answer.ok ? { base, at: now, answer } : null;
    return answer;
  }

  private async fetchDocument(base: string): Promise<BoxDocument> {
    try {
      const res = await (this.o.fetch ?? fetch)(new URL("/openapi.json", base), {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 3000),
      });
      if (!res.ok) return { ok: false, why: `The box answered ${res.status} to GET /openapi.json.` };
      const doc: unknown = await res.json();
      if (!looksLikeOpenApi(doc)) return { ok: false, why: "The box's GET /openapi.json is not an OpenAPI 3.1 document." };
      return { ok: true, doc, boxUrl: base };
    } catch {
      return { ok: false, why: "The box did not answer GET /openapi.json." };
    }
  }
}
