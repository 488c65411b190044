// Secret generation and digests for the key table. Works on every Web-standard runtime.
export const KEY_PREFIX = { api_key: "ak_", session_token: "st_", session_credential: "sc_" } as const;
export type CredentialKind = keyof typeof KEY_PREFIX;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A prefix-tagged opaque secret with 256 bits of randomness. */
export function newSecret(kind: CredentialKind): string {
  const bytes = crypto.getRandomValues(new Uint8Array(43));
  let body = "";
  for (const b of bytes) body += ALPHABET[b % 62];
  return KEY_PREFIX[kind] + body;
}

/** Hex SHA-256 of a secret: the only form stored, and a key's public id. */
export async function digestSecret(secret: string): Promise<string> {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `<prefix>...<last4>` as the API key record's `hint`. */
export function hintOf(secret: string): { hint: string; last4: string } {
  const last4 = secret.slice(-4);
  const prefix = secret.slice(0, secret.indexOf("_") + 1) || secret.slice(0, 3);
  return { hint: `${prefix}...${last4}`, last4 };
}
