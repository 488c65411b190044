// `POST /auth/consent` (upload attestations the box checks bytes against), `GET
// /auth/avatars/publication-terms`, `POST /auth/avatars/{id}/publication-consent`: bodies, codes,
// bad input, partitions, and the box's side of an attestation.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { json, libraryFixture, type LibraryFixture } from "../testing/library-fixture.ts";
import { PublicationConsent, UploadAttestation } from "./schema.ts";
import { PUBLICATION_TERMS, TermsRegistry } from "./terms.ts";

const OLD_TERMS = { version: "2024-01-01", text: "Older terms: café, naïve, 日本語 — digests are of UTF-8 bytes." };

let f: LibraryFixture;
let ada: string;
let bob: string;

beforeAll(async () => {
  f = await libraryFixture({ publicationTerms: [OLD_TERMS, ...PUBLICATION_TERMS] });
  ada = await f.signIn("ada@example.com");
  bob = await f.signIn("bob@example.com");
});
afterAll(() => f.close());

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const attest = (cookie: string, body: unknown) => f.call(cookie, "POST", "/auth/consent", body);
const agree = (cookie: string, id: string, body?: unknown) => f.call(cookie, "POST", `/auth/avatars/${id}/publication-consent`, body);
const attestationCount = async () => Number((await f.client.execute("SELECT count(*) AS n FROM upload_attestations")).rows[0].n);

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ error: { code, message: expect.any(String) } });
}

describe("POST /auth/consent", () => {
  const digest = sha("the exact bytes of a photo");

  it("records an attestation bound to the digest: 201, no owner in the body or the row", async () => {
    const res = await attest(ada, { sha256: digest, source_kind: "photo" });
    expect(res.status).toBe(201);
    const { consent } = await json(res);
    expect(consent).toEqual({
      consent_id: expect.stringMatching(/^uc_[A-Za-z0-9]{32}$/),
      sha256: digest,
      attested_at: expect.any(Number),
      source_kind: "photo",
    });
    expect(Value.Check(UploadAttestation, consent)).toBe(true);
    expect(Math.abs(consent.attested_at - Date.now() / 1000)).toBeLessThan(5);
    const row = (await f.client.execute({ sql: "SELECT * FROM upload_attestations WHERE consent_id = ?", args: [consent.consent_id] }))
      .rows[0];
    expect({ ...row }).toEqual({ consent_id: consent.consent_id, sha256: digest, attested_at: consent.attested_at, source_kind: "photo" });
    expect(JSON.stringify(consent)).not.toContain("ada");
  });

  it("defaults source_kind to image, accepts photo/image/video, lowercases the digest, new id every call", async () => {
    const a = (await json(await attest(ada, { sha256: digest.toUpperCase() }))).consent;
    expect(a.source_kind).toBe("image");
    expect(a.sha256).toBe(digest);
    for (const kind of ["photo", "image", "video"]) {
      const res = await attest(bob, { sha256: digest, source_kind: kind });
      expect(res.status).toBe(201);
      expect((await json(res)).consent.source_kind).toBe(kind);
    }
    const b = (await json(await attest(ada, { sha256: digest }))).consent;
    expect(b.consent_id).not.toBe(a.consent_id);
  });

  it("is what the box checks a consent_token against (exact digest, else mismatch)", async () => {
    const { consent } = await json(await attest(ada, { sha256: digest, source_kind: "photo" }));
    const box = f.box();
    expect(await box.checkConsent(consent.consent_id, digest)).toBe("ok");
    expect(await box.checkConsent(consent.consent_id, sha("other bytes"))).toBe("mismatch");
    expect(await box.checkConsent("uc_doesnotexist", digest)).toBe("missing");
  });

  const badDigests: [string, unknown][] = [
    ["missing", {}],
    ["63 characters", { sha256: digest.slice(1) }],
    ["65 characters", { sha256: digest + "a" }],
    ["not hex", { sha256: "g".repeat(64) }],
    ["padded", { sha256: ` ${digest}` }],
    ["a number", { sha256: 42 }],
    ["null", { sha256: null }],
    ["10 KB", { sha256: "a".repeat(10 * 1024) }],
    ["base64 of a digest", { sha256: Buffer.from(digest, "hex").toString("base64") }],
  ];
  for (const [what, body] of badDigests) {
    it(`refuses a sha256 that is ${what}: 400 invalid_sha256, nothing stored`, async () => {
      const before = await attestationCount();
      await expectError(await attest(ada, body), 400, "invalid_sha256");
      expect(await attestationCount()).toBe(before);
    });
  }

  it("treats source_kind null like an absent one (image)", async () => {
    expect((await json(await attest(ada, { sha256: digest, source_kind: null }))).consent.source_kind).toBe("image");
  });

  for (const kind of ["unknown", "PHOTO", "audio", "", 1, false]) {
    it(`refuses source_kind ${JSON.stringify(kind)}: 400 invalid_source_kind`, async () => {
      const before = await attestationCount();
      await expectError(await attest(ada, { sha256: digest, source_kind: kind }), 400, "invalid_source_kind");
      expect(await attestationCount()).toBe(before);
    });
  }

  for (const [what, body] of [
    ["not JSON", "{sha256:"],
    ["an array", [digest]],
    ["no body", undefined],
    ["a string", JSON.stringify(digest)],
  ] as const) {
    it(`refuses a body that is ${what}: 400 invalid_body`, async () => {
      await expectError(await attest(ada, body), 400, "invalid_body");
    });
  }

  it("answers other methods with 405 and needs a signed-in person", async () => {
    expect((await f.call(ada, "GET", "/auth/consent")).status).toBe(405);
    expect((await f.app.request("/auth/consent", { method: "POST", body: JSON.stringify({ sha256: digest }) })).status).toBe(401);
  });
});

describe("GET /auth/avatars/publication-terms", () => {
  it("answers the current terms with the SHA-256 of their exact UTF-8 text", async () => {
    const res = await f.call(ada, "GET", "/auth/avatars/publication-terms");
    expect(res.status).toBe(200);
    const { terms } = await json(res);
    const current = PUBLICATION_TERMS.at(-1)!;
    expect(terms).toEqual({ version: current.version, text: current.text, sha256: sha(current.text) });
    expect((await f.call(ada, "POST", "/auth/avatars/publication-terms", {})).status).toBe(405);
  });

  it("digests UTF-8 bytes (non-ASCII text)", async () => {
    const registry = new TermsRegistry([OLD_TERMS]);
    expect((await registry.get("2024-01-01"))!.sha256).toBe(sha(OLD_TERMS.text));
    expect(await registry.get("nope")).toBeNull();
    expect(registry.current).toBe("2024-01-01");
  });
});

describe("POST /auth/avatars/{id}/publication-consent", () => {
  beforeAll(async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "to-publish" });
    await f.observe({ subject: "owner:bob@example.com", avatarId: "bobs" });
  });

  it("records an agreement to the current terms (no body): 201 with the record", async () => {
    const res = await agree(ada, "to-publish");
    expect(res.status).toBe(201);
    const { publication_consent: pc } = await json(res);
    const current = PUBLICATION_TERMS.at(-1)!;
    expect(pc).toEqual({
      attestation_id: expect.stringMatching(/^pc_[A-Za-z0-9]{32}$/),
      avatar_id: "to-publish",
      terms_version: current.version,
      terms_sha256: sha(current.text),
      attested_at: expect.any(Number),
      withdrawn_at: null,
    });
    expect(Value.Check(PublicationConsent, pc)).toBe(true);
  });

  it("every call records a new agreement; an older known version binds that version's digest", async () => {
    const before = Number((await f.client.execute("SELECT count(*) AS n FROM publication_consents")).rows[0].n);
    const a = (await json(await agree(ada, "to-publish", {}))).publication_consent;
    const b = (await json(await agree(ada, "to-publish", { terms_version: "2024-01-01" }))).publication_consent;
    expect(a.attestation_id).not.toBe(b.attestation_id);
    expect(b).toMatchObject({ terms_version: "2024-01-01", terms_sha256: sha(OLD_TERMS.text) });
    expect(Number((await f.client.execute("SELECT count(*) AS n FROM publication_consents")).rows[0].n)).toBe(before + 2);
  });

  it("treats terms_version null like an absent one (the current terms)", async () => {
    const res = await agree(ada, "to-publish", { terms_version: null });
    expect(res.status).toBe(201);
    expect((await json(res)).publication_consent.terms_version).toBe(PUBLICATION_TERMS.at(-1)!.version);
  });

  for (const version of ["1999-01-01", "", "2025-06-01 ", 42, false, "__proto__", "constructor"]) {
    it(`refuses terms_version ${JSON.stringify(version)}: 400 unknown_terms_version`, async () => {
      await expectError(await agree(ada, "to-publish", { terms_version: version }), 400, "unknown_terms_version");
    });
  }

  for (const [what, body] of [
    ["not JSON", "{terms"],
    ["an array", []],
    ["a string", '"2025-06-01"'],
  ] as const) {
    it(`refuses a body that is ${what}: 400 invalid_body`, async () => {
      await expectError(await agree(ada, "to-publish", body), 400, "invalid_body");
    });
  }

  it("another person's avatar and a missing one: the same 404 avatar_not_found; nothing recorded", async () => {
    const before = Number((await f.client.execute("SELECT count(*) AS n FROM publication_consents")).rows[0].n);
    const theirs = await agree(ada, "bobs");
    const missing = await agree(ada, "no-such-avatar");
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual(await missing.json());
    expect(Number((await f.client.execute("SELECT count(*) AS n FROM publication_consents")).rows[0].n)).toBe(before);
    await expectError(await agree(ada, "bobs"), 404, "avatar_not_found");
  });

  it("answers other methods with 405", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      expect((await f.call(ada, method, "/auth/avatars/to-publish/publication-consent")).status, method).toBe(405);
    }
  });
});
