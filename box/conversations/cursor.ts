// Opaque `GET /conversations` cursors, signed and bound to the credential's subject so that
// another credential's cursor is refused (400) rather than leaking its position.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ApiError } from "../../shared/errors/api-error.ts";

export interface CursorPosition {
  updatedAt: number;
  id: string;
}

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(subject: string, pos: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([pos.updatedAt, pos.id])).toString("base64url");
    return `${payload}.${this.sign(subject, payload)}`;
  }

  decode(subject: string, cursor: string): CursorPosition {
    const bad = () => new ApiError(400, "invalid_cursor", "This cursor was not issued to this credential.");
    const [payload, sig] = cursor.split(".");
    if (!payload || !sig) throw bad();
    const want = Buffer.from(this.sign(subject, payload));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad();
    try {
      const [updatedAt, id] = JSON.parse(Buffer.from(payload, "base64url").toString());
      if (typeof updatedAt === "number" && typeof id === "string") return { updatedAt, id };
    } catch {}
    throw bad();
  }

  private sign(subject: string, payload: string): string {
    return createHmac("sha256", this.secret).update(subject).update("\0").update(payload).digest("base64url");
  }
}

/** `limit`: plain digits only (no sign, space, exponent or fraction), else the default 20; clamped to 1..50. */
export function pageLimit(raw: string | null): number {
  if (raw === null || !/^[0-9]+$/.test(raw)) return 20;
  const n = Number.parseInt(raw, 10);
  return Math.min(50, Math.max(1, n));
}
