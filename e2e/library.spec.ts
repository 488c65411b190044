// The studio's Avatars page end to end in Debian's Chromium, against the real portal and its local
// box: an empty library says what to do; a file that is not a photo and an upload without the
// consent box ticked are refused on the page with nothing sent; a real photo of one person is
// uploaded (consent recorded with the digest of its bytes first), watched from preparing to
// ready, its ticked tones' clips made without another press (one plays), published with the terms and made private again, picked
// on the live page through "Use in the live studio" and streamed, then erased. A camera snapshot
// (Chromium's fake camera: a test pattern, no face) is refused by the box with a readable reason.
import { singlePhoto } from "../box/faces/testing/photos.ts";
import { ADMIN, expect, shoot, signIn, test } from "./studio-fixture.ts";
import { launchWith } from "./chromium.ts";

// The config's flags plus a fake camera (this spec only); --use-fake-ui-for-media-stream grants it.
test.use({
  launchOptions: launchWith("--use-fake-device-for-media-stream"),
});

const ID = "ada-lovelace";
const FILE = `${ID}.jpg`;
/** The name the page gives it: the file's name without its ending, tidied. */
const NAME = "Ada lovelace";

test("upload a photo, watch the build finish, make a clip, publish, switch to it live, erase it", async ({ page, studio }) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET") sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  const uploads = () => sent.filter((s) => s === "POST /auth/consent" || s === "POST /api/avatar");
  const library = async () => (await (await page.request.get(`${studio.url}/auth/avatars`)).json()).avatars as Record<string, unknown>[];

  await signIn(page, studio, "ada@example.com");
  await page.goto(`${studio.url}/studio/library`);
  const row = page.locator(`.avatar-item[data-avatar-id="${ID}"]`);
  const result = page.locator("#upload-result");
  const fileInput = page.getByLabel("Photo or video from this computer");

  await test.step("an empty library says what to do", async () => {
    await expect(page.locator("#my-avatars")).toContainText("You have no avatars yet.");
    await expect(page.locator("#my-avatars")).toContainText("tick the consent box and press Upload and prepare");
    await expect(page.locator("#tone-boxes input[name=tone]")).toHaveCount(6);
    await expect(page.getByLabel("neutral (always)")).toBeDisabled();
    await expect(page.locator("#public-avatars")).toContainText("Nobody has published an avatar yet.");
    await shoot(page, "library-empty");
  });

  await test.step("refused on the page, nothing sent: a file that is not an image, then no consent ticked", async () => {
    await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("These are notes, not a photo.") });
    await expect(result).toHaveText(
      "“notes.txt” is not a photo or a video this studio takes. Choose a PNG or JPG photo, or an MP4, MOV or WEBM video.",
    );
    await page.getByRole("button", { name: "Upload and prepare" }).click();
    await expect(result).toContainText("“notes.txt” is not a photo or a video");
    // Named like a photo, but its bytes are text.
    await fileInput.setInputFiles({ name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not really a JPEG") });
    await expect(result).toContainText("“fake.jpg” is named like a photo but is not one");

    await fileInput.setInputFiles({ name: FILE, mimeType: "image/jpeg", buffer: Buffer.from(await singlePhoto()) });
    await expect(page.locator("#chosen .chosen-name")).toHaveText(FILE);
    await expect(page.locator("#chosen-still")).toBeVisible();
    await page.getByRole("button", { name: "Upload and prepare" }).click();
    await expect(result).toHaveText(
      "Tick the consent box first: you are the person shown, or you have their permission. Nothing was sent.",
    );
    await expect(page.locator("#attest")).toBeFocused();
    expect(uploads()).toEqual([]);
  });

  await test.step("upload with the attestation: preparing, then ready, with its still", async () => {
    // Every state the row shows is written down as it changes (no timing in the assertion).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const state = document.querySelector<HTMLElement>('.avatar-item[data-avatar-id="ada-lovelace"]')?.dataset.state;
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      }).observe(document.getElementById("my-avatars")!, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["data-state"],
      });
    });
    await expect(page.getByLabel("Name of the avatar")).toHaveValue(NAME);
    // Two tones ticked (neutral always): their clips are made once the face is ready.
    for (const t of ["sad", "surprised", "thoughtful", "serious"]) await page.locator(`#tone-${t}`).uncheck();
    await page.getByLabel(/I am the person in this photo or video/).check();
    await page.getByRole("button", { name: "Upload and prepare" }).click();
    await expect(result).toContainText(`${FILE} is uploaded as the avatar “${NAME}” (id ${ID}).`);
    expect(uploads()).toEqual(["POST /auth/consent", "POST /api/avatar"]);
    await expect(row).toBeVisible();
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(["preparing", "ready"]);
    await expect(row.locator(".avatar-state")).toHaveText(/^Ready \(prepared in [^)]+\): use it in the live studio\.$/);
    await expect(row.locator(".avatar-badges")).toContainText("from a photo");
    await expect(row.locator(".avatar-still img")).toBeVisible();
    expect(await row.locator(".avatar-still img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The form is ready for the next one: the consent is per file.
    await expect(page.locator("#attest")).not.toBeChecked();
    await expect(page.locator("#chosen")).toBeHidden();
    // What the portal stored: the box's observation, private, made from a photo with consent.
    await expect
      .poll(async () => (await library()).map((a) => [a.avatar_id, a.state, a.source_kind, a.visibility]))
      .toEqual([[ID, "ready", "photo", "private"]]);
  });

  await test.step("the ticked tones' clips: made on the box without a press, then played", async () => {
    const neutral = row.locator('.clip-list li[data-tone="neutral"]');
    await expect(row.locator("details.clips")).toHaveAttribute("open", ""); // opened by the page to show the progress
    await expect(row.locator(".clip-list li")).toHaveCount(2);
    await expect(neutral).toHaveAttribute("data-state", /^(generating|generated)$/);
    await expect.poll(() => sent.filter((s) => s === "POST /api/avatar/clips/retry").length).toBe(2);
    await expect(neutral).toHaveAttribute("data-state", "generated", { timeout: 150_000 });
    await expect(neutral.locator(".clip-state")).toHaveText(/^Made \(\d+\.\d s\)\.$/);
    await expect(row.locator("summary")).toHaveText(/^Tones and clips: 2 tones, [12] clips? made$/);
    await neutral.getByRole("button", { name: "Play of the neutral tone" }).click();
    const video = row.locator("video.clip-video");
    await expect(video).toBeVisible();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(1);
    await shoot(page, "library");
  });

  await test.step("publish with the terms, see it public, make it private again", async () => {
    await row.getByRole("button", { name: `Publish ${NAME}` }).click();
    const dialog = page.getByRole("dialog", { name: `Publish “${NAME}”?` });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator(".terms-version")).toHaveText(/^\(version .+\)$/);
    await expect(dialog.locator("#terms-text")).not.toHaveText("Loading the terms…");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await shoot(page, "library-publish");
    await dialog.getByRole("button", { name: "I agree: publish" }).click();
    await expect(row).toHaveAttribute("data-visibility", "public");
    await expect(row.locator(".avatar-main > .result")).toHaveText(
      "Published: it is listed in the public library. Make it private again at any time.",
    );
    await expect(row.getByRole("button", { name: `Make private (${NAME})` })).toBeFocused();
    const listed = page.locator(`#public-avatars [data-avatar-id="${ID}"]`);
    await expect(listed).toContainText("Yours");
    expect((await library())[0].visibility).toBe("public");

    await row.getByRole("button", { name: `Make private (${NAME})` }).click();
    await expect(row).toHaveAttribute("data-visibility", "private");
    await expect(row.locator(".avatar-main > .result")).toHaveText("Private again: it is no longer listed in the public library.");
    await expect(row.getByRole("button", { name: `Publish ${NAME}` })).toBeFocused();
    await expect(listed).toHaveCount(0);
    expect((await library())[0].visibility).toBe("private");
  });

  await test.step("use it in the live studio: picked there, and the call streams it", async () => {
    await row.getByRole("link", { name: `Use in the live studio (${NAME})` }).click();
    await expect(page).toHaveURL(/\/studio$/); // the pick is remembered, the address is clean again
    const picked = page.locator(`#avatar-picker input[name=avatar][value="${ID}"]`);
    await expect(picked).toBeChecked();
    await expect(page.locator("#avatar-picker .picker-head")).toHaveText(["Stock", "Yours"]);
    await expect(page.locator("#avatar-picker label.avatar-card", { has: page.locator(`input[value="${ID}"]`) })).toContainText("Yours");
    await shoot(page, "library-live");
    await page.getByRole("button", { name: "Start call" }).click();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
    await expect(page.locator("#event-log")).toContainText(`Call answered: avatar ${ID}`);
    await expect
      .poll(() => page.locator("#avatar-video").evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames), {
        message: "frames decoded in the <video>",
      })
      .toBeGreaterThan(25);
    await page.getByRole("button", { name: "End call" }).click();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
  });

  await test.step("erase it after confirming: gone from the library and from the box", async () => {
    await page.goto(`${studio.url}/studio/library`);
    await row.getByRole("button", { name: `Erase ${NAME}` }).click();
    const dialog = page.getByRole("dialog", { name: `Erase “${NAME}” for good?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("the prepared face on the box");
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await dialog.getByRole("button", { name: "Erase for good" }).click();
    await expect(page.locator("#list-result")).toHaveText(
      `“${NAME}” is erased: the library entry, the public listing, the archived photo, video and clips and the prepared face on the box are gone.`,
    );
    await expect(row).toHaveCount(0);
    await expect(page.locator("#my-avatars")).toContainText("You have no avatars yet.");
    await expect(page.locator("#mine-h")).toBeFocused();
    expect(await library()).toEqual([]);
    // The running box dropped it too: the live page no longer offers it.
    await page.goto(`${studio.url}/studio`);
    await expect(page.locator("#avatar-picker input[name=avatar]").first()).toBeAttached();
    await expect(page.locator(`#avatar-picker input[value="${ID}"]`)).toHaveCount(0);
  });

  expect(errors).toEqual([]);
});

test("a camera snapshot with no face in it: the box's reason is said on the page", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signIn(page, studio, "cam@example.com");
  await page.goto(`${studio.url}/studio/library`);

  await page.getByRole("button", { name: "Use the camera" }).click();
  await expect(page.locator("#camera-status")).toHaveText("The camera is on. Face it, in good light, then press Take the photo.");
  await expect.poll(() => page.locator("#camera-video").evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Take the photo" })).toBeFocused();
  await page.getByRole("button", { name: "Take the photo" }).click();
  await expect(page.locator("#camera-panel")).toBeHidden();
  const name = page.locator("#chosen .chosen-name");
  await expect(name).toHaveText(/^camera-\d{8}-\d{6}-[0-9a-f]{4}\.jpg$/);
  await expect(page.locator("#chosen .chosen-what")).toContainText("Camera photo");

  const snapshot = (await name.textContent())!;

  await page.getByLabel(/I am the person in this photo or video/).check();
  await page.getByRole("button", { name: "Upload and prepare" }).click();
  await expect(page.locator("#upload-result")).toContainText(`${snapshot} is uploaded as the avatar`);
  // The avatar id is the file name's stem: each snapshot is its own avatar.
  const row = page.locator(`.avatar-item[data-avatar-id="${snapshot.replace(/\.jpg$/, "")}"]`);
  await expect(row).toHaveAttribute("data-state", "failed", { timeout: 60_000 });
  await expect(row.locator(".avatar-state")).toHaveText(
    "Could not be prepared: No face was found in the photo. Use a photo where one face looks at the camera, well lit and not too small. Upload another photo: one person, face to the camera, in good light.",
  );
  await expect(row.locator(".badge.failed")).toHaveText("Failed");
  // A failed face can be erased, not published or used live.
  await expect(row.getByRole("button", { name: /^Publish/ })).toBeHidden();
  await expect(row.getByRole("link", { name: /^Use in the live studio/ })).toBeHidden();
  await shoot(page, "library-failed");
  expect(errors).toEqual([]);
});

test("the box stopped: the library still reads, and an upload says what to do", async ({ page, studio }) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signIn(page, studio, ADMIN);
  expect((await page.request.post(`${studio.url}/auth/gpu/stop`)).status()).toBe(200);
  try {
    await page.goto(`${studio.url}/studio/library`);
    const notice = page.locator('[data-notice="box"]');
    await expect(notice).toContainText("The box is stopped");
    await expect(notice).toContainText("your library, publishing and erasing work without it");
    await expect(notice.getByRole("link", { name: "Start it on the GPU page" })).toHaveAttribute("href", "/studio/gpu");
    await expect(page.locator("#my-avatars")).toContainText("You have no avatars yet.");
    await page
      .getByLabel("Photo or video from this computer")
      .setInputFiles({ name: "while-stopped.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await singlePhoto()) });
    await page.getByLabel(/I am the person in this photo or video/).check();
    await page.getByRole("button", { name: "Upload and prepare" }).click();
    await expect(page.locator("#upload-result")).toHaveText(
      "The box is not running, so it cannot take the upload now (see the notice at the top of the page). Nothing was uploaded.",
    );
    await expect(page.getByRole("button", { name: "Upload and prepare" })).toBeEnabled();
    await shoot(page, "library-box-stopped");
  } finally {
    expect((await page.request.post(`${studio.url}/auth/gpu/start`)).status()).toBe(200);
  }
  // Started again: Refresh finds it and the notice goes.
  await expect
    .poll(
      async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        return page.locator('[data-notice="box"]').count();
      },
      { timeout: 60_000, message: "the box answers again" },
    )
    .toBe(0);
  expect(errors).toEqual([]);
});
