// The Portraits page through the portal core (`app.request()`, no port): signed-out visits go to
// sign-in, the page is HTML with its security headers, every field labelled, no secret in it; its
// examples are descriptions the embedded drawing really reads; the routes the script relies on
// (create, the bytes with their digest, approve bound to that digest) answer as the page expects;
// the portal's refusals come out in words.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AvatarApiError } from "../../shared/client/index.ts";
import { parseDescription } from "../../shared/face-drawing/describe.ts";
import { sharpRasterise } from "../portraits/sharp-rasterise.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import { portraitWords } from "./browser/portraits.ts";
import { EXAMPLES } from "./portraits-page.tsx";
import { SECRET_SHAPE, unlabelled } from "./testing/page-checks.ts";

let portal: TestPortal;
let ada: string;

beforeAll(async () => {
  portal = await createTestPortal({ adminEmails: ["root@example.com"], portraits: { rasterise: sharpRasterise, size: 64 } });
  ada = await portal.signIn("ada@example.com");
});
afterAll(() => portal.close());

const get = (path: string, cookie?: string) => portal.app.request(path, { headers: cookie ? { cookie } : {} });
const post = (path: string, cookie: string, body: unknown) =>
  portal.app.request(path, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the Portraits page", () => {
  it("sends a signed-out visitor to sign in, coming back here", async () => {
    const res = await get("/studio/portraits");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/studio/sign-in?next=%2Fstudio%2Fportraits");
  });

  it("is the studio's HTML page with its headers, every field labelled, and no key or credential in it", async () => {
    const { key } = await (await post("/auth/keys", ada, { name: "backend" })).json();
    const { credential } = await (
      await portal.app.request("/auth/session/credential", { method: "POST", headers: { cookie: ada } })
    ).json();
    const res = await get("/studio/portraits", ada);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'self' blob:;.*img-src 'self' blob: data:/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toContain('data-page="portraits"');
    expect(html).toContain('data-admin="0"');
    expect(html).toContain('<label for="description">Description</label>');
    expect(html).toContain('maxlength="1000"');
    expect(html).toMatch(
      /<dialog id="approve-dialog"[^>]*>.*Approve this portrait\?.*<button value="cancel" type="submit" autofocus="">Not yet<\/button>/s,
    );
    expect(html).toContain('<h2 id="list-h">Your portraits</h2>');
    // The approval dialog says what the approval covers in words; no digest is put before the person.
    expect(/<dialog id="approve-dialog".*<\/dialog>/s.exec(html)?.[0]).not.toMatch(/digest|approve-digest|SHA/i);
    expect(unlabelled(html)).toEqual([]);
    expect(html).not.toContain(key.secret);
    expect(html).not.toContain(credential.secret);
    expect(html).not.toMatch(SECRET_SHAPE);
    expect(html).not.toMatch(/style="/);
    expect(await (await get("/studio/portraits", await portal.signIn("root@example.com"))).text()).toContain('data-admin="1"');
  });

  it("offers examples the embedded drawing reads: hair, glasses, beard, age, clothes, mood", () => {
    const [red, elder, young, bald] = EXAMPLES.map((e) => parseDescription(e));
    expect(red).toMatchObject({ gender: "feminine", hairColour: "red", hairStyle: "short", mood: "smile" });
    expect(red.glasses).not.toBeNull();
    expect(elder).toMatchObject({
      gender: "masculine",
      hairColour: "grey",
      facialHair: "full",
      mood: "calm",
      clothing: { style: "collar" },
    });
    expect(elder.age).toBeGreaterThan(65);
    expect(young).toMatchObject({ hairStyle: "curly", eyes: "brown", mood: "smile", clothing: { style: "scoop" } });
    expect(young.skin).not.toBeNull();
    expect(bald).toMatchObject({ hairStyle: "bald", facialHair: "moustache", mood: "serious" });
  });

  it("the routes behave as the script expects: bytes with their digest, approval bound to that digest", async () => {
    const created = await post("/auth/portraits", ada, { description: EXAMPLES[0] });
    expect(created.status).toBe(201);
    const { portrait } = await created.json();
    const image = await get(portrait.url, ada);
    expect(image.status).toBe(200);
    const bytes = new Uint8Array(await image.arrayBuffer());
    const digest = createHash("sha256").update(bytes).digest("hex");
    expect(image.headers.get("x-portrait-sha256")).toBe(digest);
    expect(image.headers.get("content-type")).toBe(portrait.content_type);

    const wrong = await post(`/auth/portraits/${portrait.portrait_id}/approve`, ada, { sha256: "0".repeat(64) });
    expect(wrong.status).toBe(409);
    const refusal = AvatarApiError.fromBody(409, await wrong.json());
    expect(portraitWords(refusal)).toContain("nothing was approved");

    const approved = await post(`/auth/portraits/${portrait.portrait_id}/approve`, ada, { sha256: digest });
    expect(approved.status).toBe(200);
    const { consent } = await approved.json();
    expect(consent).toMatchObject({ sha256: digest, source_kind: "image" });
    expect(consent.consent_id).toMatch(/^uc_/);

    // Regenerating keeps the old one: the page's list may show both.
    const again = await post(`/auth/portraits/${portrait.portrait_id}/regenerate`, ada, {});
    expect(again.status).toBe(201);
    expect((await again.json()).portrait.regenerated_from).toBe(portrait.portrait_id);
    expect((await get(portrait.url, ada)).status).toBe(200);
  });

  it("says the portrait refusals in words a person can act on", async () => {
    // A real refusal: a portal with neither a rasteriser nor an image provider.
    const bare = await createTestPortal();
    const refused = await bare.app.request("/auth/portraits", {
      method: "POST",
      headers: { cookie: await bare.signIn("ada@example.com"), "content-type": "application/json" },
      body: JSON.stringify({ description: EXAMPLES[0] }),
    });
    expect(refused.status).toBe(503);
    expect(portraitWords(AvatarApiError.fromBody(503, await refused.json()))).toMatch(
      /^The portrait generator is not available right now: .+ Nothing was kept\. Try again in a minute/,
    );
    await bare.close();

    const words = (status: number, code: string, message: string) => portraitWords(new AvatarApiError(status, code, message));
    expect(words(503, "portrait_generator_unavailable", "The image provider did not answer within 60 s")).toMatch(
      /not available right now.*within 60 s\. Nothing was kept\. Try again in a minute/,
    );
    expect(words(502, "portrait_generation_failed", "The provider answered 500.")).toMatch(
      /could not be made: The provider answered 500\. Nothing was kept\. Try again, or change the description\./,
    );
    expect(words(502, "asset_store_failed", "The media store did not accept the portrait; nothing was kept.")).toContain(
      "Try again shortly",
    );
    expect(words(404, "portrait_not_found", "No such portrait.")).toBe("That portrait is not yours or is gone. Generate a new one.");
    expect(words(400, "invalid_body", "The description must be 1 to 1000 characters")).toBe(
      "The description must be 1 to 1000 characters.",
    );
    // The box's refusals are explain()'s (box stopped, signed out ...), not these.
    expect(words(503, "box_not_running", "No box.")).toBeNull();
  });
});
