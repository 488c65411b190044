// The GPU page end to end in Debian's Chromium against the real portal and its local box: an
// administrator sees the box running, stops it from the page (the button is off while the request
// runs), starts it again (the box answers), opens the terminate dialog and keeps the box; a person
// who is not an administrator is told the page is not for them (also when the gate says so only
// at the route); a portal with no GPU driver says it cannot start a box and what to set.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "@playwright/test";
import { startPortalProcess } from "../portal/testing/portal-process.ts";
import { ADMIN, expect, shoot, signIn, SIZES, test } from "./studio-fixture.ts";

const statusOf = async (page: Page, url: string) => (await (await page.request.get(`${url}/auth/gpu/status`)).json()).gpu.state as string;

test("an administrator stops and starts the box from the GPU page, and opens the terminate dialog without terminating", async ({
  page,
  studio,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio, ADMIN);
  await page.getByRole("link", { name: "GPU" }).click();
  await expect(page).toHaveURL(/\/studio\/gpu$/);

  const state = page.locator("#gpu-state");
  const box = page.locator("#box-readiness");
  await test.step("running, in words", async () => {
    await expect(state).toHaveAttribute("data-state", "running");
    await expect(state).toContainText("Running.");
    await expect(page.locator("#gpu-facts")).toContainText("the portal's own machine");
    await expect(page.locator("#gpu-facts")).toContainText("Running for");
    await expect(page.locator("#gpu-facts")).toContainText("None: it runs on the portal's own machine.");
    await expect(box).toContainText("The box answers.");
    await expect(box).toContainText("Language model: ready.");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Start", exact: true })).toBeHidden();
    await expect(page.getByRole("button", { name: "Launch a box" })).toBeHidden();
  });

  await test.step("stop: the button is off while the request runs, then the state is stopped", async () => {
    // Hold the request until the page has been looked at, so "off while it runs" is observed, not timed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/auth/gpu/stop", async (route) => {
      await held;
      await route.continue();
    });
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click();
    await expect(stop).toBeDisabled();
    await expect(page.getByRole("button", { name: "Terminate…" })).toBeDisabled();
    await expect(state).toContainText("Stopping the box");
    release();
    await expect(state).toHaveAttribute("data-state", "stopped");
    await expect(state).toContainText("Stopped: no machine cost while stopped.");
    await expect(page.locator("#gpu-result")).toContainText("Stopped: the box is off");
    await expect(box).toContainText("The box does not answer: it is not running.");
    await page.unroute("**/auth/gpu/stop");
    expect(await statusOf(page, studio.url)).toBe("stopped");
  });

  await test.step("start again: running, and the box answers", async () => {
    await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(state).toHaveAttribute("data-state", "running", { timeout: 60_000 });
    await expect(box).toContainText("The box answers.", { timeout: 30_000 });
    await expect(box).toContainText("Voice: ready");
    expect(await statusOf(page, studio.url)).toBe("running");
    await page.locator("#gpu-diagnostics summary").click();
    await expect(page.locator("#diagnostics-body")).toContainText("instance.health: passed");
    await shoot(page, "gpu");
  });

  await test.step("terminate asks first, says what is lost, and keeping the box keeps it", async () => {
    await page.getByRole("button", { name: "Terminate…" }).click();
    const dialog = page.getByRole("dialog", { name: "Terminate the box?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("calls in progress end");
    await expect(dialog).toContainText("PORTAL_BOX_DATA_DIR");
    await expect(dialog.getByRole("button", { name: "Keep the box" })).toBeFocused();
    await shoot(page, "gpu-terminate");
    await dialog.getByRole("button", { name: "Keep the box" }).click();
    await expect(dialog).toBeHidden();
    await expect(state).toHaveAttribute("data-state", "running");
    expect(await statusOf(page, studio.url)).toBe("running");
  });

  // The page was rendered for an administrator, but the gate refuses at the route (the list changed
  // under it): the page says it is not for them and stops asking. Faked at the browser, so the
  // shared portal keeps its administrator.
  await test.step("a 409 gpu_admin_only from the route turns the page into the not-for-you sentence", async () => {
    let asked = 0;
    await page.route("**/auth/gpu/status", (route) => {
      asked++;
      return route.fulfill({
        status: 409,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "gpu_admin_only", message: "GPU controls are for this deployment's administrators." } }),
      });
    });
    await page.reload();
    await expect(page.locator("#not-admin")).toBeVisible();
    await expect(page.locator("#gpu-admin")).toBeHidden();
    const after = asked;
    // It polls every 5 s while it may: past that, a page that stopped asking has asked no more.
    await page.waitForTimeout(6_000);
    expect(asked).toBe(after);
    await page.unroute("**/auth/gpu/status");
  });
  expect(errors).toEqual([]);
});

test("a person who is not an administrator is told the page is for administrators", async ({ browser, studio }) => {
  const context = await browser.newContext({ viewport: SIZES.desktop });
  const page = await context.newPage();
  await signIn(page, studio, "visitor@example.com");
  await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "GPU" })).toHaveCount(0);
  await page.goto(`${studio.url}/studio/gpu`);
  const notFor = page.locator("#not-admin");
  await expect(notFor).toBeVisible();
  await expect(notFor).toContainText("This page is for administrators");
  await expect(notFor).toContainText("ask whoever runs this portal");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await shoot(page, "gpu-not-admin");
  // The gate itself, as the page's script would meet it.
  const refused = await page.request.post(`${studio.url}/auth/gpu/stop`);
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe("gpu_admin_only");
  await context.close();
});

// Its own portal (no box to start, so it is cheap): the worker's portal keeps its local driver.
test("a portal with no GPU driver says it cannot start a box and what to set", async ({ page, studio }) => {
  const dir = mkdtempSync(join(tmpdir(), "studio-e2e-none-"));
  const portal = await startPortalProcess({
    PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
    PORTAL_DATA_DIR: dir,
    PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
    PORTAL_GPU_DRIVER: "none",
    PORTAL_ADMIN_EMAILS: ADMIN,
  });
  try {
    const none = { ...studio, url: portal.url, portal, dir };
    await signIn(page, none, ADMIN);
    await page.goto(`${none.url}/studio/gpu`);
    const notice = page.locator('[data-notice="driver"]');
    await expect(notice).toContainText("This portal cannot start a box");
    await expect(notice).toContainText("PORTAL_GPU_DRIVER=local");
    await expect(page.locator("#gpu-state")).toHaveAttribute("data-state", "none");
    await expect(page.locator("#gpu-state")).toContainText("this portal cannot launch one");
    await expect(page.getByRole("button", { name: "Launch a box" })).toBeHidden();
    await expect(page.locator("#box-readiness")).toContainText("it is not running");
    await shoot(page, "gpu-none");
  } finally {
    await portal.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
