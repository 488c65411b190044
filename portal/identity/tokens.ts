// Random tokens, digests and HMAC signatures. The default signer uses Web Crypto (any runtime); an
// entry point may pass a synchronous one (node:crypto) because signing sits on every request.
export { digestSecret as sha256Hex } from "../../shared/key-table/secrets.ts";

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 256 bits of randomness, base64url. */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** HMAC-SHA256 of `purpose:value` under the portal secret, base64url. */
export interface Signer {
  sign(purpose: string, value: string): string | Promise<string>;
}

export class WebCryptoSigner implements Signer {
  #key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.#key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  async sign(purpose: string, value: string): Promise<string> {
    const sig = await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(`${purpose}:${value}`));
    return base64url(new Uint8Array(sig));
  }
}

/** Constant-time string comparison (signatures). */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
