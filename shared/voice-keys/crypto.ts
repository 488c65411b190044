// Implements: Voice settings: provider keys at rest. AES-256-GCM under a key derived from
// PORTAL_SECRET with HKDF-SHA256 (Web Crypto only, so a box or a Deno portal can do the same):
//   key       = HKDF-SHA256(ikm = UTF-8(PORTAL_SECRET), salt = UTF-8(HKDF_SALT), info = UTF-8(HKDF_INFO), 32 bytes)
//   nonce     = 12 random bytes, fresh on every write
//   aad       = UTF-8("voice_keys/v1" NUL owner NUL provider): a row copied to another owner or provider fails
//   stored    = base64url(nonce), base64url(ciphertext || 16-byte tag), key_id
//   key_id    = "v1:" + first 16 hex of SHA-256(UTF-8(KEY_ID_LABEL) || key): tells "sealed under another
//               secret" apart from "tampered" without revealing anything about the key.

export const HKDF_SALT = "avatar-service/voice-keys";
export const HKDF_INFO = "voice_keys/v1 aes-256-gcm";
const AAD_LABEL = "voice_keys/v1";
const KEY_ID_LABEL = "voice_keys/v1 key id";
const NONCE_BYTES = 12;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

export function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new VoiceKeyUnreadable("not base64url");
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** A sealed row could not be opened: wrong secret, another owner's or provider's row, or tampered bytes. */
export class VoiceKeyUnreadable extends Error {
  constructor(reason: string) {
    super(`the saved voice key cannot be decrypted (${reason})`);
    this.name = "VoiceKeyUnreadable";
  }
}

export interface SealedVoiceKey {
  keyId: string;
  nonce: string;
  ciphertext: string;
}

/** The 32 bytes of key material behind the cipher; what a box would be handed instead of the secret. */
export async function deriveVoiceKeyMaterial(secret: string): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", utf8.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: utf8.encode(HKDF_SALT), info: utf8.encode(HKDF_INFO) },
    ikm,
    256,
  );
  return new Uint8Array(bits);
}

const aad = (owner: string, provider: string) => utf8.encode(`${AAD_LABEL}\u0000${owner}\u0000${provider}`);

export class VoiceKeyCipher {
  private constructor(
    private readonly key: CryptoKey,
    readonly keyId: string,
  ) {}

  static async fromSecret(secret: string): Promise<VoiceKeyCipher> {
    return VoiceKeyCipher.fromKeyMaterial(await deriveVoiceKeyMaterial(secret));
  }

  static async fromKeyMaterial(material: Uint8Array): Promise<VoiceKeyCipher> {
    if (material.length !== 32) throw new Error("voice key material must be 32 bytes");
    const raw = new Uint8Array(material);
    const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
    const label = utf8.encode(KEY_ID_LABEL);
    const tagged = new Uint8Array(label.length + raw.length);
    tagged.set(label);
    tagged.set(raw, label.length);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", tagged));
    const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
    return new VoiceKeyCipher(key, `v1:${hex}`);
  }

  async seal(owner: string, provider: string, plaintext: string): Promise<SealedVoiceKey> {
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: nonce, additionalData: aad(owner, provider), tagLength: 128 },
      this.key,
      utf8.encode(plaintext),
    );
    return { keyId: this.keyId, nonce: toBase64Url(nonce), ciphertext: toBase64Url(new Uint8Array(sealed)) };
  }

  /** The plaintext key; throws VoiceKeyUnreadable for anything that does not authenticate. */
  async open(owner: string, provider: string, sealed: SealedVoiceKey): Promise<string> {
    if (sealed.keyId !== this.keyId) throw new VoiceKeyUnreadable("sealed under another portal secret");
    const nonce = fromBase64Url(sealed.nonce);
    if (nonce.length !== NONCE_BYTES) throw new VoiceKeyUnreadable("bad nonce");
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: new Uint8Array(nonce), additionalData: aad(owner, provider), tagLength: 128 },
        this.key,
        new Uint8Array(fromBase64Url(sealed.ciphertext)),
      );
    } catch {
      throw new VoiceKeyUnreadable("authentication failed");
    }
    return fromUtf8.decode(plain);
  }
}
