// The studio's small promises end to end in Debian's Chromium, against the real portal and its
// local box: an avatar named at upload ("Grey Beard", not its file name), the clips of the tones
// ticked at upload made without another press (and no others), times measured rather than a
// fixed "a minute"; the portrait approval dialog without a digest and the person's portraits listed
// again after a reload; "You are signed out" after Sign out. Screenshots at 1366x768 and 390x844.
import type { Locator, Page } from "@playwright/test";
import { join } from "node:path";
import { singlePhoto } from "../box/faces/testing/photos.ts";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";

const VIEWS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/** Screenshots at both sizes, `target` scrolled into view at each. */
async function look(page: Page, name: string, target?: Locator): Promise<void> {
  for (const v of VIEWS) {
    await page.setViewportSize(v);
    await target?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `trust-${name}-${v.width}x${v.height}.png`) });
  }
  await page.setViewportSize(VIEWS[0]);
}

test("an avatar is named at upload and its ticked tones get clips without another press; signing out says so", async ({ page, studio }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/avatar/clips/retry") asked.push(JSON.parse(r.postData() ?? "{}").tone);
  });
  await page.setViewportSize(VIEWS[0]);
  await signIn(page, studio, "grey@example.com");
  await page.goto(`${studio.url}/studio/library`);

  await page
    .getByLabel("Photo or video from this computer")
    .setInputFiles({ name: "grey_beard.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await singlePhoto()) });
  const name = page.getByLabel("Name of the avatar");
  await expect(name).toHaveValue("Grey beard");
  await name.fill("Grey Beard");
  await expect(page.locator("#tone-boxes input[name=tone]")).toHaveCount(6);
  const tones = await page.locator("#tone-boxes input[name=tone]").evaluateAll((boxes: HTMLInputElement[]) => boxes.map((b) => b.value));
  const unticked = tones.filter((t) => t !== "neutral").slice(0, 2);
  for (const t of unticked) await page.locator(`#tone-${t}`).uncheck();
  const ticked = tones.filter((t) => !unticked.includes(t));
  await page.getByLabel(/I am the person in this photo or video/).check();
  await look(page, "library-chosen", name);
  await page.getByRole("button", { name: "Upload and prepare" }).click();

  const result = page.locator("#upload-result");
  await expect(result).toContainText("is uploaded as the avatar “Grey Beard” (id grey-beard).");
  await expect(result).not.toContainText("minute");
  const row = page.locator('.avatar-item[data-avatar-id="grey-beard"]');
  await expect(row.locator(".avatar-name")).toHaveText("Grey Beard");
  await expect(row).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  await expect(row.locator(".avatar-state")).toHaveText(/^Ready \(prepared in (\d+ s|\d+ min \d\d s)\): use it in the live studio\.$/);

  // Nobody presses a clip button: the ticked tones are asked for, the others are not.
  await expect.poll(() => [...asked].sort(), { timeout: 30_000 }).toEqual([...ticked].sort());
  await expect(row.locator("details.clips")).toHaveAttribute("open", "");
  for (const t of ticked)
    await expect(row.locator(`.clip-list li[data-tone="${t}"]`)).toHaveAttribute("data-state", /^(generating|generated)$/);
  // The tones not ticked are not the avatar's at all (the box loads the tones asked).
  for (const t of unticked) await expect(row.locator(`.clip-list li[data-tone="${t}"]`)).toHaveCount(0);
  // Being made says the time so far (measured), never a fixed "a minute"; made says the clip's length.
  for (const t of ticked)
    await expect(row.locator(`.clip-list li[data-tone="${t}"] .clip-state`)).toHaveText(
      /^(Being made… \d+ s so far.*|Made \(\d+\.\d s\)\.)$/,
    );
  await expect(row.locator(".clips")).not.toContainText("a minute");
  await expect(row.locator(".avatar-badges")).toContainText(/added \S+/);
  await look(page, "library", row.locator(".clip-list"));

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/studio\/sign-in\?signed_out=1$/);
  await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();
  await look(page, "signed-out");
  // Asked to sign in by a page (a `next`), nothing says a sign-out happened.
  await page.goto(`${studio.url}/studio/sign-in?next=%2Fstudio%2Flibrary`);
  await expect(page.getByText("You are signed out.")).toBeHidden();
  expect(errors).toEqual([]);
});

test("the approval dialog shows no digest, and the person's portraits are listed after a reload", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(VIEWS[0]);
  await signIn(page, studio, "sitter@example.com");
  await page.goto(`${studio.url}/studio/portraits`);
  await page.getByLabel("Description", { exact: true }).fill("an elderly man with a grey beard and glasses");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await expect(page.locator("#portrait-list li")).toHaveCount(1);
  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.locator("#portrait-list li")).toHaveCount(2);

  await page.getByRole("button", { name: "Approve…" }).click();
  const dialog = page.getByRole("dialog", { name: "Approve this portrait?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Your approval covers exactly this picture");
  expect(await dialog.innerText()).not.toMatch(/[0-9a-f]{12}|digest|SHA/i);
  await look(page, "approve");
  await dialog.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.locator("#portrait-result")).toContainText("Approved.");

  await page.reload();
  const picks = page.locator("#portrait-list .portrait-pick");
  await expect(picks).toHaveCount(2);
  await expect(page.locator("#portrait-list-empty")).toBeHidden();
  await expect(picks.first()).toContainText("Approved · just now");
  await expect(picks.nth(1)).toContainText("Not approved · just now");
  await picks.nth(1).click();
  await expect(page.locator("#portrait-img")).toHaveAttribute("src", /^blob:/);
  await expect(page.locator("#portrait-facts")).toContainText("not approved yet");
  await expect(page.getByRole("button", { name: "Approve…" })).toBeEnabled();
  await look(page, "portraits", page.locator("#portrait-list"));
  expect(errors).toEqual([]);
});
