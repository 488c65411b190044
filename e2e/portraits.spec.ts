// The Portraits page end to end in Debian's Chromium against the real portal and its local box:
// describe, generate (the image decoded in the page), regenerate (the old one stays), approve after
// the dialog (bytes the portal did not store are refused: 409 portrait_digest_mismatch), make it an
// avatar (the box has it, the library lists it), and failures in words: the image generator down
// and the box stopped (real envelopes, answered at the browser so the shared box keeps running).
import type { Page } from "@playwright/test";
import { expect, shoot, signIn, SIZES, test } from "./studio-fixture.ts";

const PERSON = "painter@example.com";
const DESCRIPTION = "a woman with short red hair and glasses, smiling";

const naturalWidth = (page: Page) =>
  page.locator("#portrait-img").evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

test("describe, generate, regenerate, approve and make it an avatar the box has", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio, PERSON);
  await page.getByRole("link", { name: "Portraits" }).click();
  await expect(page).toHaveURL(/\/studio\/portraits$/);

  const img = page.locator("#portrait-img");
  const result = page.locator("#portrait-result");
  let firstSrc = "";

  await test.step("the generator down is said in words, and nothing is listed", async () => {
    await page.route("**/auth/portraits", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({
              error: { code: "portrait_generator_unavailable", message: "The image provider did not answer within 60 s." },
            }),
          })
        : route.continue(),
    );
    await page.getByLabel("Description", { exact: true }).fill(DESCRIPTION);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect(page.locator("#describe-result")).toContainText(
      "The portrait generator is not available right now: The image provider did not answer within 60 s. Nothing was kept.",
    );
    await expect(page.getByRole("button", { name: "Generate", exact: true })).toBeEnabled();
    await expect(page.locator("#portrait-list li")).toHaveCount(0);
    await page.unroute("**/auth/portraits");
  });

  await test.step("generate: the image is shown, decoded", async () => {
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect(img).toBeVisible();
    await expect.poll(() => naturalWidth(page), { message: "the portrait decoded in the page" }).toBeGreaterThan(0);
    await expect(img).toHaveAttribute("alt", `Portrait: ${DESCRIPTION}`);
    await expect(img).toHaveAttribute("src", /^blob:/);
    await expect(page.locator("#portrait-facts")).toContainText("not approved yet");
    await expect(page.locator("#portrait-list li")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Make it an avatar" })).toBeDisabled();
    firstSrc = (await img.getAttribute("src")) ?? "";
  });

  await test.step("regenerate: a new portrait, the old one stays in the list", async () => {
    // The page is handed the first portrait's bytes under the new id, once: what it shows is then
    // not what the portal stored, and approving it must be refused (the next step).
    const firstId = (await page.locator("#portrait-list .portrait-pick").first().getAttribute("data-portrait-id"))!;
    const firstBytes = await (await page.request.get(`${studio.url}/auth/portraits/${firstId}`)).body();
    let swapped = false;
    await page.route(/\/auth\/portraits\/p_[a-z0-9]+$/, (route) => {
      if (swapped || route.request().method() !== "GET" || route.request().url().endsWith(firstId)) return route.continue();
      swapped = true;
      return route.fulfill({ status: 200, contentType: "image/png", body: firstBytes });
    });
    await page.getByRole("button", { name: "Regenerate" }).click();
    await expect(page.locator("#portrait-list li")).toHaveCount(2);
    await expect(img).not.toHaveAttribute("src", firstSrc);
    await expect.poll(() => naturalWidth(page)).toBeGreaterThan(0);
    await expect(result).toContainText("the previous one is still in the list");
    const ids = await page.locator("#portrait-list .portrait-pick").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-portrait-id")));
    expect(new Set(ids).size).toBe(2);
    expect(swapped).toBe(true);
    await page.unroute(/\/auth\/portraits\/p_[a-z0-9]+$/);
    // The old one is still served by the portal, bytes and all.
    expect((await page.request.get(`${studio.url}/auth/portraits/${ids[1]}`)).status()).toBe(200);
  });

  await test.step("approving bytes the portal did not store is refused in words, and the page loads the real ones", async () => {
    await page.getByRole("button", { name: "Approve…" }).click();
    const dialog = page.getByRole("dialog", { name: "Approve this portrait?" });
    await expect(dialog.getByRole("button", { name: "Not yet" })).toBeFocused();
    await dialog.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(result).toContainText("The image on the portal is not the one this page showed, so nothing was approved.");
    await expect(page.locator("#portrait-facts")).toContainText("not approved yet");
  });

  await test.step("approve after the dialog", async () => {
    await page.getByRole("button", { name: "Approve…" }).click();
    const dialog = page.getByRole("dialog", { name: "Approve this portrait?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Not yet" })).toBeFocused();
    // A sentence, not a digest: nothing hexadecimal is put before the person.
    await expect(dialog).toContainText("Your approval covers exactly this picture");
    expect(await dialog.innerText()).not.toMatch(/[0-9a-f]{12}|digest|SHA/i);
    await shoot(page, "portraits-approve");
    await dialog.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(result).toContainText("Approved. Now you can make it an avatar.");
    await expect(page.getByRole("button", { name: "Approved ✓" })).toBeDisabled();
    await expect(page.locator("#portrait-facts")).toContainText(/approved \S/);
  });

  await test.step("the box stopped is said in words, with whom to ask; the approval is kept", async () => {
    await page.route("**/api/avatar", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "box_not_running", message: "No box is running." } }),
      }),
    );
    await page.getByRole("button", { name: "Make it an avatar" }).click();
    const notice = page.locator('[data-notice="box"]');
    await expect(notice).toContainText("The box is stopped");
    await expect(notice).toContainText("Ask an administrator of this portal to start it");
    await expect(page.getByRole("button", { name: "Make it an avatar" })).toBeEnabled();
    await page.unroute("**/api/avatar");
  });

  let avatarId = "";
  await test.step("make it an avatar: the box has it, the library lists it", async () => {
    await page.getByLabel("Avatar name").fill("Red Hair E2E");
    await page.getByRole("button", { name: "Make it an avatar" }).click();
    await expect(result).toContainText("is on the box", { timeout: 30_000 });
    await expect(page.locator('[data-notice="box"]')).toHaveCount(0);
    avatarId = /Avatar “([^”]+)”/.exec((await result.textContent()) ?? "")?.[1] ?? "";
    expect(avatarId).toBe("red-hair-e2e");
    await expect(page.getByRole("link", { name: "Talk to it in the live studio" })).toHaveAttribute("href", `/studio?avatar=${avatarId}`);
    await expect(page.getByRole("link", { name: "See it in your avatars" })).toHaveAttribute("href", "/studio/library");

    // The box, asked with this person's own credential.
    const { credential } = await (await page.request.post(`${studio.url}/auth/session/credential`)).json();
    const videos = await (
      await page.request.get(`${studio.url}/api/videos`, { headers: { authorization: `Bearer ${credential.secret}` } })
    ).json();
    expect(videos.videos.map((v: { id: string }) => v.id)).toContain(avatarId);
    // The library, as the portal shows it to this person.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`${studio.url}/auth/avatars`)).json()).avatars as { avatar_id: string }[]).map(
            (a) => a.avatar_id,
          ),
        { message: "the library lists the new avatar" },
      )
      .toContain(avatarId);
    await expect(page.locator("#portrait-list li").first()).toContainText(`Avatar “${avatarId}”`);
    await shoot(page, "portraits");
  });

  await test.step("the older portrait is one click away in the list", async () => {
    await page.locator("#portrait-list .portrait-pick").nth(1).click();
    await expect(page.locator("#portrait-list .portrait-pick").nth(1)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("#portrait-facts")).toContainText("not approved yet");
    await expect(page.getByRole("button", { name: "Make it an avatar" })).toBeDisabled();
    await expect(page.locator("#avatar-made")).toBeHidden();
  });
  expect(errors).toEqual([]);
});
