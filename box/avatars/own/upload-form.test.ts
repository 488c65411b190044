import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/errors/api-error.ts";
import { encodePng } from "../../render/png.ts";
import { AVATAR_FORM, PHOTO_AVATAR_FORM, UPLOAD_LIMITS, declaredAiGenerated, parseUploadForm, readMultipart } from "./upload-form.ts";

const JPG = readFileSync(new URL("../../../node_modules/@vladmandic/face-api/demo/sample1.jpg", import.meta.url));
const PNG = encodePng(new Uint8Array(8 * 8 * 4).fill(90), 8, 8);
const MP4_HEAD = new Uint8Array([0, 0, 0, 0x20, ...Buffer.from("ftypisom"), ...new Array(40).fill(0)]);

function form(parts: [string, string | [Uint8Array | Buffer, string]][]): FormData {
  const f = new FormData();
  for (const [name, v] of parts) {
    if (typeof v === "string") f.append(name, v);
    else f.append(name, new File([v[0] as Uint8Array<ArrayBuffer>], v[1]));
  }
  return f;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

/** A PNG whose header claims w x h, with a tiny IDAT: refused before anything decodes it. */
function bombPng(w: number, h: number): Uint8Array {
  const p = encodePng(new Uint8Array(4 * 4 * 4), 4, 4);
  const v = new DataView(p.buffer, p.byteOffset);
  v.setUint32(16, w);
  v.setUint32(20, h);
  return p;
}

describe("parseUploadForm", () => {
  it("takes a JPEG under its name with the text parts and takes", async () => {
    const r = await parseUploadForm(
      form([
        ["file", [JPG, "me.jpg"]],
        ["tones", "happy"],
        ["ai_generated", "yes"],
      ]),
      AVATAR_FORM,
      UPLOAD_LIMITS,
      "flat",
    );
    expect(r.file).toMatchObject({ name: "me.jpg", kind: "jpeg", ext: "jpg" });
    expect(r.fields).toEqual({ tones: "happy", ai_generated: "yes" });
  });

  it("goes by the bytes: a PNG named .jpg is a PNG, a zip named .png is refused", async () => {
    expect((await parseUploadForm(form([["file", [PNG, "x.jpg"]]]), AVATAR_FORM, UPLOAD_LIMITS, "flat")).file.ext).toBe("png");
    const zip = await refusal(
      parseUploadForm(form([["file", [Buffer.from("PK\x03\x04rest of a zip"), "x.png"]]]), AVATAR_FORM, UPLOAD_LIMITS, "flat"),
    );
    expect(zip.status).toBe(400);
    expect(zip.message).toMatch(/zip archive/);
    const mismatch = await refusal(parseUploadForm(form([["file", [JPG, "x.mp4"]]]), AVATAR_FORM, UPLOAD_LIMITS, "flat"));
    expect(mismatch.message).toMatch(/named like a video/);
  });

  it("refuses other extensions, empty files, unknown parts, wrong part types and repeats, each naming the problem", async () => {
    const cases: [[string, string | [Uint8Array | Buffer, string]][], RegExp][] = [
      [[["file", [JPG, "me.gif"]]], /must end \.png \.jpg \.jpeg \.mp4 \.mov \.webm/],
      [[["file", [new Uint8Array(), "me.png"]]], /empty/],
      [
        [
          ["file", [JPG, "me.jpg"]],
          ["colour", "blue"],
        ],
        /Unknown part "colour"/,
      ],
      [[["file", "me.jpg"]], /must be a file/],
      [
        [
          ["file", [JPG, "me.jpg"]],
          ["tones", [JPG, "t.jpg"]],
        ],
        /must be a text field/,
      ],
      [
        [
          ["file", [JPG, "me.jpg"]],
          ["tones", "a"],
          ["tones", "b"],
        ],
        /twice/,
      ],
      [[["tones", "happy"]], /file is required/],
      [
        [
          ["file", [MP4_HEAD, "v.mp4"]],
          ["take__happy", [JPG, "take.jpg"]],
        ],
        /must end \.webm \.mp4 \.mov \.mkv/,
      ],
      [
        [
          ["file", [MP4_HEAD, "v.mp4"]],
          ["take__happy", "text"],
        ],
        /must be a video file/,
      ],
      [
        [
          ["file", [MP4_HEAD, "v.mp4"]],
          ["take__happy__x", [MP4_HEAD, "t.mp4"]],
        ],
        /Unknown part/,
      ],
      [
        [
          ["file", [JPG, "me.jpg"]],
          ["avatar_id", "x"],
        ],
        /Unknown part "avatar_id"/,
      ],
    ];
    for (const [parts, message] of cases) {
      const err = await refusal(parseUploadForm(form(parts), AVATAR_FORM, UPLOAD_LIMITS, "flat"));
      expect(err.status, String(message)).toBe(400);
      expect(err.message).toMatch(message);
    }
  });

  it("refuses an image of 20000x20000 pixels from its header, and a truncated one", async () => {
    const bomb = await refusal(parseUploadForm(form([["file", [bombPng(20000, 20000), "big.png"]]]), AVATAR_FORM, UPLOAD_LIMITS, "flat"));
    expect(bomb).toMatchObject({ status: 400, code: "image_too_large" });
    expect(bomb.message).toMatch(/20000x20000/);
    const cut = await refusal(parseUploadForm(form([["file", [JPG.subarray(0, 5000), "cut.jpg"]]]), AVATAR_FORM, UPLOAD_LIMITS, "flat"));
    expect(cut.message).toMatch(/truncated/);
  });

  it("photo_avatar.create takes avatar_id and no takes, in the nested envelope", async () => {
    const r = await parseUploadForm(
      form([
        ["file", [JPG, "me.jpg"]],
        ["avatar_id", "me"],
      ]),
      PHOTO_AVATAR_FORM,
      UPLOAD_LIMITS,
      "nested",
    );
    expect(r.fields.avatar_id).toBe("me");
    const err = await refusal(
      parseUploadForm(
        form([
          ["file", [JPG, "me.jpg"]],
          ["take__happy", [MP4_HEAD, "t.mp4"]],
        ]),
        PHOTO_AVATAR_FORM,
        UPLOAD_LIMITS,
        "nested",
      ),
    );
    expect(err.envelope).toBe("nested");
  });
});

describe("readMultipart", () => {
  it("refuses a body over the limit with 413 and a non-multipart body with 400", async () => {
    const big = new Request("http://x/api/avatar", { method: "POST", body: form([["file", [new Uint8Array(3000), "a.png"]]]) });
    const err = await refusal(readMultipart(big, { ...UPLOAD_LIMITS, maxBodyBytes: 1000 }, "flat"));
    expect(err).toMatchObject({ status: 413, code: "body_too_large" });
    const json = new Request("http://x/api/avatar", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await refusal(readMultipart(json, UPLOAD_LIMITS, "flat"))).status).toBe(400);
  });
});

describe("declaredAiGenerated", () => {
  it("is yes for exactly true 1 yes y on", () => {
    for (const v of ["true", "1", "yes", "y", "on", " TRUE "]) expect(declaredAiGenerated(v), v).toBe(true);
    for (const v of [undefined, "", "false", "0", "no", "t", "yep", "enabled"]) expect(declaredAiGenerated(v), String(v)).toBe(false);
  });
});
