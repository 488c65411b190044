// Synchronous HMAC for Bun/Node entry points: the session cookie is checked on every request, and
// node:crypto signs in ~1 µs where an async Web Crypto call costs ~14 µs on Bun.
import { createHmac } from "node:crypto";
import type { Signer } from "./tokens.ts";

export class NodeSigner implements Signer {
  constructor(private readonly secret: string) {}

  sign(purpose: string, value: string): string {
    return createHmac("sha256", this.secret).update(`${purpose}:${value}`).digest("base64url");
  }
}
