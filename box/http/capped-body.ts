// Reads a request body whole, refusing it (the caller's 413) as soon as its declared length or
// the bytes read pass `limit`, so an oversized upload is never kept in memory past the limit.
import { readCapped } from "../../shared/util/read-capped.ts";

export async function readBodyCapped(request: Request, limit: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge();
  const bytes = await readCapped(request, limit);
  if (!bytes) throw tooLarge();
  return bytes;
}
