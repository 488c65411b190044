// Voice keys at rest: AES-256-GCM under HKDF-SHA256(PORTAL_SECRET), round trip, a fresh nonce per
// write, tamper detection, the owner+provider binding, and the documented parameters reproduced
// with node:crypto (what a box holding the derived key would do in any runtime).
import { createDecipheriv, hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deriveVoiceKeyMaterial,
  fromBase64Url,
  HKDF_INFO,
  HKDF_SALT,
  toBase64Url,
  VoiceKeyCipher,
  VoiceKeyUnreadable,
  type SealedVoiceKey,
} from "./crypto.ts";

const SECRET = "voice-test-secret-0123456789abcdef0123456789";
const KEY = "sk_test_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

const flip = (b64: string, at: number) => {
  const bytes = fromBase64Url(b64);
  bytes[at] ^= 0x01;
  return toBase64Url(bytes);
};

describe("VoiceKeyCipher", () => {
  it("round-trips a key and uses a fresh 96-bit nonce on every write", async () => {
    const cipher = await VoiceKeyCipher.fromSecret(SECRET);
    const a = await cipher.seal("ada@example.com", "elevenlabs", KEY);
    const b = await cipher.seal("ada@example.com", "elevenlabs", KEY);
    expect(fromBase64Url(a.nonce)).toHaveLength(12);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    // Ciphertext is as long as the plaintext plus the 16-byte tag.
    expect(fromBase64Url(a.ciphertext)).toHaveLength(KEY.length + 16);
    expect(a.keyId).toMatch(/^v1:[0-9a-f]{16}$/);
    expect(await cipher.open("ada@example.com", "elevenlabs", a)).toBe(KEY);
    expect(await cipher.open("ada@example.com", "elevenlabs", b)).toBe(KEY);
    expect(JSON.stringify(a)).not.toContain(KEY);
  });

  it("detects any change to the ciphertext, the tag or the nonce", async () => {
    const cipher = await VoiceKeyCipher.fromSecret(SECRET);
    const sealed = await cipher.seal("ada@example.com", "cartesia", KEY);
    const tagAt = fromBase64Url(sealed.ciphertext).length - 1;
    const tampered: SealedVoiceKey[] = [
      { ...sealed, ciphertext: flip(sealed.ciphertext, 0) },
      { ...sealed, ciphertext: flip(sealed.ciphertext, tagAt) },
      { ...sealed, ciphertext: toBase64Url(fromBase64Url(sealed.ciphertext).slice(0, -1)) },
      { ...sealed, ciphertext: "" },
      { ...sealed, nonce: flip(sealed.nonce, 5) },
      { ...sealed, nonce: toBase64Url(new Uint8Array(16)) },
      { ...sealed, ciphertext: "not base64url!" },
    ];
    for (const t of tampered) await expect(cipher.open("ada@example.com", "cartesia", t)).rejects.toBeInstanceOf(VoiceKeyUnreadable);
  });

  it("binds the row to its owner and provider: copied to another owner or provider it does not open", async () => {
    const cipher = await VoiceKeyCipher.fromSecret(SECRET);
    const sealed = await cipher.seal("ada@example.com", "elevenlabs", KEY);
    await expect(cipher.open("bob@example.com", "elevenlabs", sealed)).rejects.toBeInstanceOf(VoiceKeyUnreadable);
    await expect(cipher.open("ada@example.com", "cartesia", sealed)).rejects.toBeInstanceOf(VoiceKeyUnreadable);
    // The separator keeps "a" + "b\0c" and "a\0b" + "c" apart.
    await expect(cipher.open("ada@example.com\u0000elevenlabs", "", sealed)).rejects.toBeInstanceOf(VoiceKeyUnreadable);
  });

  it("does not open under another secret, and says so through key_id", async () => {
    const sealed = await (await VoiceKeyCipher.fromSecret(SECRET)).seal("ada@example.com", "elevenlabs", KEY);
    const other = await VoiceKeyCipher.fromSecret(`${SECRET}-rotated`);
    expect(other.keyId).not.toBe(sealed.keyId);
    await expect(other.open("ada@example.com", "elevenlabs", sealed)).rejects.toThrow(/another portal secret/);
    // Even with the key id forged to match, authentication fails.
    await expect(other.open("ada@example.com", "elevenlabs", { ...sealed, keyId: other.keyId })).rejects.toThrow(/authentication failed/);
  });

  it("follows the documented scheme: HKDF-SHA256 parameters, AAD, nonce and ciphertext||tag layout", async () => {
    const material = await deriveVoiceKeyMaterial(SECRET);
    const expected = new Uint8Array(
      hkdfSync("sha256", Buffer.from(SECRET, "utf8"), Buffer.from(HKDF_SALT, "utf8"), Buffer.from(HKDF_INFO, "utf8"), 32),
    );
    expect(material).toEqual(expected);

    // A reader given only the derived 32 bytes (not PORTAL_SECRET) opens the row.
    const fromMaterial = await VoiceKeyCipher.fromKeyMaterial(material);
    const sealed = await (await VoiceKeyCipher.fromSecret(SECRET)).seal("ada@example.com", "elevenlabs", KEY);
    expect(fromMaterial.keyId).toBe(sealed.keyId);
    expect(await fromMaterial.open("ada@example.com", "elevenlabs", sealed)).toBe(KEY);

    // And so does plain node:crypto following the comment at the top of crypto.ts.
    const body = Buffer.from(fromBase64Url(sealed.ciphertext));
    const decipher = createDecipheriv("aes-256-gcm", Buffer.from(material), Buffer.from(fromBase64Url(sealed.nonce)));
    decipher.setAAD(Buffer.from("voice_keys/v1\u0000ada@example.com\u0000elevenlabs", "utf8"));
    decipher.setAuthTag(body.subarray(body.length - 16));
    expect(Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8")).toBe(KEY);
    await expect(VoiceKeyCipher.fromKeyMaterial(new Uint8Array(16))).rejects.toThrow(/32 bytes/);
  });
});
