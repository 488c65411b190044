// The studio's Avatars page: the server-rendered skeleton through the portal core (signed-out visits
// go to sign-in; 200 HTML with the security headers, the camera allowed for this origin only; every
// field labelled; the attestation and both confirmation dialogs present; no credential and no
// avatar data of anybody in the page), and the page script's pure parts: what a file is before it
// is sent, the library merged with what the box says, and the erase result in words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedAvatars } from "../../shared/client/index.ts";
import { libraryFixture, type LibraryFixture } from "../testing/library-fixture.ts";
import type { LibraryRecord } from "../../shared/wire/library.ts";
import { anyPreparing, mergeAvatars, stateWords } from "./browser/library/model.ts";
import {
  MAX_UPLOAD_BYTES,
  avatarLabel,
  checkFile,
  eraseWords,
  snapshotName,
  sniffFamily,
  uploadFilename,
} from "./browser/library/words.ts";
import { ago, elapsed, when } from "./browser/words.ts";
import type { StudioScript } from "./routes.ts";
import { SECRET_SHAPE, unlabelled } from "./testing/page-checks.ts";

const SCRIPT: StudioScript = { code: "console.log('studio')", etag: '"lib1"' };

let f: LibraryFixture;
let ada: string;

beforeAll(async () => {
  f = await libraryFixture({ studio: { script: async () => SCRIPT }, adminEmails: ["root@example.com"] });
  ada = await f.signIn("ada@example.com");
});
afterAll(() => f.close());

const page = (cookie?: string) => f.app.request("/studio/library", { headers: cookie ? { cookie } : {} });

describe("GET /studio/library", () => {
  it("sends a signed-out visitor to sign in, coming back to the Avatars page", async () => {
    const res = await page();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/studio/sign-in?next=%2Fstudio%2Flibrary");
  });

  it("is an HTML page with the studio's security headers; the camera is allowed for this origin only", async () => {
    const res = await page(ada);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toMatch(
      /default-src 'none'; script-src 'self' blob:;.*img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'/,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("permissions-policy")).toBe("microphone=(self), camera=(self), geolocation=()");
    const html = await res.text();
    expect(html).toContain('data-page="library"');
    expect(html).toContain('<a href="/studio/library" aria-current="page">Avatars</a>');
    // No inline style anywhere (the CSP would drop it).
    expect(html).not.toMatch(/<style|\sstyle="/);
  });

  it("labels every field, and carries the upload form, the attestation and both confirmation dialogs", async () => {
    const html = await (await page(ada)).text();
    expect(unlabelled(html)).toEqual([]);
    expect(html).toContain('<input id="upload-file" name="file" type="file" accept=".png,.jpg,.jpeg,.mp4,.mov,.webm,');
    expect(html).toMatch(
      /<input id="attest" name="attest" type="checkbox"[^>]*>\s*<label for="attest">I am the person in this photo or video, or I have their permission/,
    );
    expect(html).toContain('<button type="button" id="camera-open">Use the camera</button>');
    expect(html).toMatch(/<dialog id="publish-dialog"[^>]*>.*Publication terms.*I agree: publish.*<\/dialog>/s);
    // The erase dialog names what goes, and its safe choice has the focus.
    const erase = /<dialog id="erase-dialog".*?<\/dialog>/s.exec(html)?.[0] ?? "";
    for (const what of ["from your library", "public library", "archived media", "prepared face on the box", "cannot be undone"])
      expect(erase).toContain(what);
    expect(erase).toMatch(/<button value="cancel" type="submit" autofocus="">\s*Keep it/);
  });

  it("the skeleton carries no credential and no avatar data: the script reads the library itself", async () => {
    await f.observe({ subject: "owner:ada@example.com", avatarId: "ada-portrait", name: "ada-portrait.jpg" });
    await f.observe({ subject: "owner:bob@example.com", avatarId: "bob-secret", name: "bob-secret.jpg" });
    const bob = await f.signIn("bob@example.com");
    await f.call(bob, "POST", "/auth/avatars/bob-secret/publication-consent");
    expect((await f.call(bob, "PUT", "/auth/avatars/bob-secret/visibility", { visibility: "public" })).status).toBe(200);
    const minted = await (await f.call(ada, "POST", "/auth/session/credential")).json();
    const html = await (await page(ada)).text();
    expect(html).not.toContain(minted.credential.secret);
    expect(html).not.toMatch(SECRET_SHAPE);
    expect(html).not.toContain("ada-portrait");
    expect(html).not.toContain("bob-secret");
    expect(html).not.toContain("bob@example.com");
    // The JSON routes the script reads do answer (the public one without anybody's address).
    const pub = await (await f.call(ada, "GET", "/auth/avatars/public")).json();
    expect(pub.avatars).toEqual([expect.objectContaining({ avatar_id: "bob-secret", mine: false, visibility: "public" })]);
    expect(JSON.stringify(pub)).not.toContain("bob@example.com");
  });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const MP4 = new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f]);
const text = new TextEncoder().encode("just some notes");
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x0a, 0]);

describe("a file is checked before anything is sent", () => {
  it("takes PNG and JPG photos and MP4, MOV and WEBM videos by their bytes", () => {
    expect(sniffFamily(PNG)).toBe("image");
    expect(sniffFamily(JPEG)).toBe("image");
    expect(sniffFamily(MP4)).toBe("video");
    expect(sniffFamily(WEBM)).toBe("video");
    expect(sniffFamily(text)).toBeNull();
    expect(checkFile("me.PNG", 1000, PNG)).toEqual({ ok: true, family: "image" });
    expect(checkFile("me.jpeg", 1000, JPEG)).toEqual({ ok: true, family: "image" });
    expect(checkFile("clip.mov", 1000, MP4)).toEqual({ ok: true, family: "video" });
    expect(checkFile("clip.webm", 1000, WEBM)).toEqual({ ok: true, family: "video" });
  });

  it("refuses, in words, what is not a photo or a video, an empty file, a file too big, and a misnamed one", () => {
    const refused = (name: string, size: number, head: Uint8Array) => {
      const c = checkFile(name, size, head);
      expect(c.ok, name).toBe(false);
      return c.ok ? "" : c.text;
    };
    expect(refused("notes.txt", 15, text)).toBe(
      "“notes.txt” is not a photo or a video this studio takes. Choose a PNG or JPG photo, or an MP4, MOV or WEBM video.",
    );
    expect(refused("photo.png", 6, ZIP)).toContain("is named like a photo but is not one");
    expect(refused("photo.jpg", 0, JPEG)).toContain("is empty");
    expect(refused("huge.jpg", MAX_UPLOAD_BYTES + 1, JPEG)).toContain("is too big (50.0 MB); at most 50 MB is taken");
    expect(refused("film.jpg", 1000, MP4)).toContain("is named like a photo but is a video");
    expect(refused("x".repeat(80) + ".gif", 10, text)).toContain("…”");
  });

  it("names a camera snapshot uniquely, so that each becomes its own avatar", () => {
    const at = new Date(2026, 2, 4, 5, 6, 7);
    expect(snapshotName(at, 0.5)).toBe("camera-20260304-050607-8000.jpg");
    expect(snapshotName(at, 0.25)).not.toBe(snapshotName(at, 0.75));
    expect(snapshotName()).toMatch(/^camera-\d{8}-\d{6}-[0-9a-f]{4}\.jpg$/);
  });
});

const record = (id: string, over: Partial<LibraryRecord> = {}): LibraryRecord => ({
  avatar_id: id,
  name: `${id}.jpg`,
  source_kind: "photo",
  state: "ready",
  created_at: 100,
  updated_at: 100,
  prepared_in_region: "local",
  weights_volume: "vol-1",
  detail: "",
  visibility: "private",
  ...over,
});

const boxSays = (over: Partial<LoadedAvatars> = {}): LoadedAvatars => ({
  avatars: [],
  groups: [{ id: "stock-ava", label: "Ava", variants: ["stock-ava"], tones: ["neutral"], preview: "stock-ava", stock: true }],
  preparing: [],
  active: "stock-ava",
  active_group: "stock-ava",
  builds: {},
  ...over,
});

describe("names and times as measured, never a fixed guess", () => {
  it("names an avatar after its file without the ending, tidied; a camera snapshot by when it was taken", () => {
    expect(avatarLabel("Grey Beard.png")).toBe("Grey Beard");
    expect(avatarLabel("grey_beard.JPG")).toBe("Grey beard");
    expect(avatarLabel("  ada   lovelace.mp4")).toBe("Ada lovelace");
    expect(avatarLabel("holiday.tar")).toBe("Holiday.tar");
    expect(avatarLabel("ada-lovelace.jpg")).toBe("Ada lovelace");
    expect(avatarLabel("Jean-Luc Picard.png")).toBe("Jean-Luc Picard");
    expect(avatarLabel("")).toBe("");
    expect(avatarLabel("camera-20261129-110500-ab12.jpg")).toMatch(/^Camera photo, .*29.*2026, 11:05$/);
    expect(uploadFilename(" Grey  Beard ", "IMG_0042.JPG")).toBe("Grey Beard.jpg");
    expect(uploadFilename("", "IMG_0042.JPG")).toBe("IMG_0042.JPG");
    expect(uploadFilename("a/b", "x.png")).toBe("a b.png");
    const views = mergeAvatars([record("grey-beard", { name: "Grey Beard.png" })], boxSays());
    expect(views[0].name).toBe("Grey Beard");
  });

  it("says how long a face has been preparing, and how long it took, from the box's journal", () => {
    const journal = (states: [string, number][]) =>
      states.map(([state, at]) => ({ tone: "neutral", variant_id: "a", kind: "face", state, at, detail: "" }));
    const preparing = boxSays({
      preparing: ["a"],
      builds: {
        a: journal([
          ["queued", 100],
          ["preparing", 101],
        ]),
      },
    });
    expect(stateWords(mergeAvatars([record("a")], preparing)[0], 112_000)).toBe(
      "Preparing: the box is finding the face and making the avatar (12 s so far).",
    );
    const ready = boxSays({
      groups: [{ id: "a", label: "a.png", variants: ["a"], tones: ["neutral"], preview: "a", stock: false }],
      builds: {
        a: journal([
          ["queued", 100],
          ["preparing", 101],
          ["ready", 103],
        ]),
      },
    });
    expect(stateWords(mergeAvatars([record("a")], ready)[0])).toBe("Ready (prepared in 3 s): use it in the live studio.");
    const again = boxSays({
      preparing: ["a"],
      builds: {
        a: journal([
          ["queued", 100],
          ["ready", 103],
          ["queued", 200],
        ]),
      },
    });
    expect(stateWords(mergeAvatars([record("a")], again)[0], 265_000)).toContain("(1 min 05 s so far)");
  });

  it("writes a moment one way, in the reader's zone, and lists say how long ago", () => {
    expect(when(1_795_950_300, "en-GB", "UTC")).toBe("29 Nov 2026, 11:05");
    expect(when(1_795_950_300, "en-GB", "Asia/Tokyo")).toBe("29 Nov 2026, 20:05");
    const now = 1_795_950_300_000;
    expect(ago(now / 1000 - 10, now)).toBe("just now");
    expect(ago(now / 1000 - 180, now)).toBe("3 min ago");
    expect(ago(now / 1000 - 7200, now)).toBe("2 h ago");
    expect(ago(now / 1000 - 86_400, now)).toBe("yesterday");
    expect(elapsed(3.2)).toBe("3 s");
    expect(elapsed(65)).toBe("1 min 05 s");
  });
});

describe("the library merged with what the running box says", () => {
  it("the box's word wins over the library's last observation; stock faces are not the person's", () => {
    const box = boxSays({
      groups: [
        ...boxSays().groups,
        { id: "done", label: "done.jpg", variants: ["done", "done__happy"], tones: ["neutral", "happy"], preview: "done", stock: false },
      ],
      preparing: ["again", "again__happy"],
      builds: { again: [{ tone: "neutral", variant_id: "again", kind: "face", state: "preparing", at: 5, detail: "" }], done: [] },
    });
    const views = mergeAvatars([record("done", { state: "preparing", created_at: 10 }), record("again", { created_at: 20 })], box);
    expect(views.map((v) => [v.id, v.state, v.onBox, v.tones])).toEqual([
      ["again", "preparing", "preparing", []],
      ["done", "ready", "ready", ["neutral", "happy"]],
    ]);
    expect(views[0].phase).toBe("preparing");
    expect(stateWords(views[0])).toContain("the box is finding the face");
    expect(stateWords(views[0])).not.toMatch(/minute/);
    expect(stateWords(views[1])).toBe("Ready: use it in the live studio.");
    expect(anyPreparing(views)).toBe(true);
  });

  it("a failed face says the box's reason; a record of a box that is gone neither claims to be usable nor keeps the page polling", () => {
    const box = boxSays({
      builds: {
        blank: [{ tone: "neutral", variant_id: "blank", kind: "face", state: "failed", at: 9, detail: "No face was found in the photo." }],
      },
    });
    const views = mergeAvatars([record("blank", { state: "preparing" }), record("elsewhere", { state: "preparing", created_at: 50 })], box);
    const blank = views.find((v) => v.id === "blank")!;
    expect(blank.state).toBe("failed");
    expect(stateWords(blank)).toBe(
      "Could not be prepared: No face was found in the photo. Upload another photo: one person, face to the camera, in good light.",
    );
    const elsewhere = views.find((v) => v.id === "elsewhere")!;
    expect(elsewhere.onBox).toBe("absent");
    expect(anyPreparing(views)).toBe(false);
    const ready = mergeAvatars([record("old")], boxSays())[0];
    expect(stateWords(ready)).toContain("not on the running box");
    expect(stateWords(mergeAvatars([record("old")], null)[0])).toContain("The box is not answering now");
  });

  it("an upload the library has not recorded yet shows at once, newest first, and keeps the page asking", () => {
    const views = mergeAvatars([record("older", { created_at: 10 })], boxSays(), new Map([["camera-1", { name: "camera-1.jpg", at: 99 }]]));
    expect(views.map((v) => [v.id, v.name, v.state, v.visibility])).toEqual([
      ["camera-1", "Camera 1", "preparing", null],
      ["older", "Older", "ready", "private"],
    ]);
    expect(anyPreparing(views)).toBe(true);
  });
});

describe("the erase result in words", () => {
  it("complete names everything that went", () => {
    expect(
      eraseWords("ada.jpg", {
        avatar_id: "ada",
        status: "complete",
        erased: ["registry_record", "public_listing", "archived_media", "prepared_avatar"],
        pending: [],
      }),
    ).toBe(
      "“ada.jpg” is erased: the library entry, the public listing, the archived photo, video and clips and the prepared face on the box are gone.",
    );
  });

  it("pending says what is still to go and when", () => {
    const r = {
      avatar_id: "ada",
      status: "pending" as const,
      erased: ["registry_record" as const, "public_listing" as const, "archived_media" as const],
      pending: ["prepared_avatar" as const],
    };
    expect(eraseWords("ada.jpg", r)).toBe(
      "“ada.jpg” is erased from your library and the public library. Still to go: the prepared face on the box's disk, which the box removes when it next starts.",
    );
    // Taken off the running box at once: nothing is left to wait for.
    expect(eraseWords("ada.jpg", r, "removed")).toContain(
      "is erased: the library entry, the public listing, the archived photo, video and clips and the prepared face on the box are gone.",
    );
    expect(eraseWords("ada.jpg", r, "kept")).toContain("can show in the live studio until the box restarts");
    const media = {
      ...r,
      erased: ["registry_record" as const, "public_listing" as const],
      pending: ["archived_media" as const, "prepared_avatar" as const],
    };
    expect(eraseWords("ada.jpg", media, "removed")).toContain(
      "Still to go: the archived photo, video and clips: the store did not answer, press Erase again to finish.",
    );
  });
});
