// The live page in its first minutes, at a laptop's 1366x768 and a phone's 390x844: the face stays
// in view while the person types and while the avatar speaks (also with a phone keyboard's worth
// of height gone), Start call is on screen without scrolling, clicking the video starts the call,
// the nav keeps to one row of links, and the chosen mode survives a reload.
import { join } from "node:path";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";
import { fold, LAPTOP, PHONE, PHONE_KEYBOARD, startCall, videoArea as video, wholeInView } from "./live-view.ts";

test.describe("with a model on the box", () => {
  test("the face and Start call stay in view; the video starts the call; the mode is remembered", async ({ page, studio }) => {
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The bundle is held back a moment: the first credential is asked for before it runs (by /studio/early.js).
    const order: string[] = [];
    await page.route("**/studio/app.js", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      if (new URL(route.request().frame().url()).pathname === "/studio") order.push("bundle released");
      await route.continue();
    });
    const mints: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "POST" || new URL(r.url()).pathname !== "/auth/session/credential") return;
      mints.push(r.frame().url());
      if (new URL(r.frame().url()).pathname === "/studio") order.push("credential asked");
    });
    await page.setViewportSize(LAPTOP);
    await signIn(page, studio);
    await expect(page.locator("#readiness")).toContainText("Voice: ready");
    await fold(page, "loaded");
    // The credential asked for by /studio/early.js before the bundle ran is the one the page uses: one mint per load.
    expect(mints.filter((u) => new URL(u).pathname === "/studio")).toHaveLength(1);
    expect(order.slice(0, 2)).toEqual(["credential asked", "bundle released"]);

    for (const size of [LAPTOP, PHONE]) {
      await test.step(`on load and while typing at ${size.width}x${size.height}`, async () => {
        await page.setViewportSize(size);
        await page.evaluate(() => window.scrollTo(0, 0));
        expect(await wholeInView(page, startCall(page)), "Start call without scrolling").toBe("in view");
        expect(await wholeInView(page, video(page)), "the video on load").toBe("in view");
        await page.getByLabel("Message").focus();
        expect(await wholeInView(page, video(page)), "the video while the Message box has focus").toBe("in view");
        expect(await wholeInView(page, page.getByLabel("Message")), "the Message box itself").toBe("in view");
      });
    }

    await test.step("the nav keeps its links on one row on a phone", async () => {
      await page.setViewportSize(PHONE);
      const rows = await page.locator(".top-bar nav li").evaluateAll((lis) => new Set(lis.map((li) => (li as HTMLElement).offsetTop)).size);
      expect(rows).toBe(1);
      const bar = await page.locator(".top-bar").boundingBox();
      expect(bar!.height, "the top bar: two rows at most").toBeLessThan(110);
    });

    await test.step("with a phone keyboard up, the face stays above it", async () => {
      await page.setViewportSize(PHONE_KEYBOARD);
      await page.getByLabel("Message").focus();
      await page.screenshot({ path: join(SHOTS, "live-keyboard-390x480.png") });
      expect(await wholeInView(page, video(page))).toBe("in view");
      expect(await wholeInView(page, page.getByLabel("Message"))).toBe("in view");
    });

    await test.step("clicking the video area starts the call", async () => {
      await page.setViewportSize(LAPTOP);
      await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
      await video(page).click();
      await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
      await expect(page.locator("#call-state")).toContainText("mic off");
    });

    await test.step("while the avatar speaks, typing on a phone, the face is in view", async () => {
      await page.setViewportSize(PHONE);
      await page.getByText("Talk", { exact: true }).click();
      await page.getByLabel("Message").fill("Hello there. I stay in view while I speak these words to you, even on a small phone screen.");
      await page.getByLabel("Message").press("Enter");
      await expect(page.locator("#call-state")).toHaveAttribute("data-state", "speaking");
      await expect(page.getByLabel("Message")).toBeFocused();
      expect(await wholeInView(page, video(page)), "the video while speaking").toBe("in view");
      await page.screenshot({ path: join(SHOTS, "live-speaking-390x844.png") });
      await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
    });

    await test.step("the chosen mode survives a reload", async () => {
      await page.getByRole("button", { name: "End call" }).click();
      await expect(page.getByRole("radio", { name: /Talk/ })).toBeChecked();
      await page.reload();
      await expect(page.locator("#readiness")).toContainText("Language model: ready");
      await expect(page.getByRole("radio", { name: /Talk/ })).toBeChecked();
      await page.getByText("Chat", { exact: true }).click();
      await page.reload();
      await expect(page.locator("#readiness")).toContainText("Language model: ready");
      await expect(page.getByRole("radio", { name: /Chat/ })).toBeChecked();
    });
    expect(errors).toEqual([]);
  });
});
