// Reads a Request's or Response's body whole, refusing one larger than a cap before keeping it all
// (Web-standard: both planes use it for uploads and for answers from servers they do not control).

/** The body's bytes, or null once it passes `maxBytes` (the rest is cancelled, never read). */
export async function readCapped(
  res: { body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}
