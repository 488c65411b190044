// The live studio end to end in Debian's Chromium: the real portal (`bun portal/main.ts`) with its
// local box (its model a local fake speaking OpenAI's protocol), sign-in through the link the
// portal prints (no mail server), the live page decoding the avatar's video, a Talk turn changing
// the state, a Chat turn with a tool, the box stopped and started again from the page, and a key
// created (secret shown once), copied and revoked. Screenshots of each page at desktop and phone size go to .cache/e2e/.
import { ADMIN, expect, printedLink, regionLuma, shoot, SIZES, spread, test } from "./studio-fixture.ts";

/** The stock face Ava's mouth in the 512 px frame. */
const MOUTH = { x: 200, y: 290, width: 112, height: 60 };

test("the studio: sign in from the console link, see the avatar, talk and chat, manage keys", async ({ page, context, studio }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.url });
  await page.setViewportSize(SIZES.desktop);

  // GET / leads to the studio, which asks a stranger to sign in.
  await test.step("sign in from the console link", async () => {
    await page.goto(studio.url);
    await expect(page).toHaveURL(/\/studio\/sign-in\?next=%2Fstudio$/);
    await expect(page.getByRole("heading", { name: "Sign in to the studio" })).toBeVisible();
    await page.getByLabel("E-mail address").fill(ADMIN);
    await page.getByRole("button", { name: "Send me a sign-in link" }).click();
    await expect(page.locator("#sign-in-sent")).toBeVisible();
    await expect(page.locator("#sign-in-sent")).toContainText("printed on the portal's console");
    await shoot(page, "sign-in");

    await page.goto(await printedLink(studio.portal, ADMIN));
    await expect(page).toHaveURL(/\/studio$/);
  });

  // The live page: pickers filled from the box, readiness in words, then the call.
  await test.step("the live page and the call", async () => {
    await expect(page.locator("#avatar-picker input[name=avatar]").first()).toBeAttached();
    await expect(page.locator("#readiness")).toContainText("Language model: ready");
    await expect(page.locator("#readiness")).toContainText("Voice: ready");
    await expect(page.locator("#voice option").first()).toBeAttached();
    await page.getByRole("button", { name: "Start call" }).click();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
    await expect
      .poll(() => page.locator("#avatar-video").evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames), {
        message: "frames decoded in the <video>",
      })
      .toBeGreaterThan(25);
    expect(await page.locator("#avatar-video").evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight, v.paused])).toEqual([
      512,
      512,
      false,
    ]);
    await expect(page.locator("#latency [data-latency=first_frame]")).toHaveText(/^\d+ ms$/);
  });

  // A Talk turn: the state goes to speaking while the words play (and the mouth moves), then back to listening.
  await test.step("a Talk turn", async () => {
    const still = spread(await regionLuma(page, MOUTH));
    await page.getByText("Talk", { exact: true }).click();
    await page.getByLabel("Message").fill("Hello! I am the avatar of this studio, speaking the words exactly as you typed them.");
    await page.getByLabel("Message").press("Enter");
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "speaking");
    await expect(page.locator("#captions")).toContainText("speaking the words exactly as you typed them");
    const talking = spread(await regionLuma(page, MOUTH));
    test
      .info()
      .annotations.push({ type: "mouth luma spread (listening / speaking)", description: `${still.toFixed(2)} / ${talking.toFixed(2)}` });
    expect(talking, "the mouth moves while the avatar speaks").toBeGreaterThan(Math.max(1, 3 * still));
    await expect(page.locator("#latency [data-latency=talk]")).toHaveText(/^\d+ ms$/);
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
    await expect(page.locator("#event-log")).toContainText("Talk queued");
  });

  // A Chat turn: the model's clauses stream in as captions, its tool shows as it runs.
  await test.step("a Chat turn", async () => {
    studio.model.enqueue(
      [{ toolCall: { name: "calculate", args: { expression: "6*7" } } }],
      [{ text: "Six times seven is forty-two. " }, { text: "Anything else?" }],
    );
    await page.getByText("Chat", { exact: true }).click();
    await page.getByLabel("Message").fill("What is six times seven?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.locator("#captions")).toContainText("Six times seven is forty-two. Anything else?");
    await expect(page.locator("#captions .chip").first()).toContainText("Working out the answer");
    await expect(page.locator("#latency [data-latency=chat_first]")).toHaveText(/^\d+ ms$/);
    await expect(page.locator("#latency [data-latency=chat_done]")).toHaveText(/^\d+ ms$/);
    await expect(page.locator("#event-log")).toContainText("Reply complete");
    await shoot(page, "live");
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });

    await page.getByRole("button", { name: "End call" }).click();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
  });

  // The box stopped: the page says so in words and an administrator starts it from there.
  await test.step("the box stopped and started", async () => {
    expect((await page.request.post(`${studio.url}/auth/gpu/stop`)).status()).toBe(200);
    await page.reload();
    const stopped = page.locator('[data-notice="box"]');
    await expect(stopped).toContainText("The box is stopped");
    await shoot(page, "box-stopped");
    await stopped.getByRole("button", { name: "Start the box" }).click();
    await expect(page.locator("#event-log")).toContainText("The box answers again.", { timeout: 30_000 });
    await expect(stopped).toHaveCount(0);
    await expect(page.locator("#readiness")).toContainText("Voice: ready");
    await expect(page.locator("#avatar-picker input[name=avatar]").first()).toBeAttached();
  });

  // Keys: create (the secret shown once), copy, revoke after confirming.
  await test.step("keys", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name", { exact: true }).fill("studio e2e");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.locator("#new-key")).toBeVisible();
    await expect(page.locator("#new-key")).toBeFocused();
    const secret = await page.locator("#new-key-secret").inputValue();
    expect(secret).toMatch(/^ak_[A-Za-z0-9]{43}$/);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(page.locator("#copy-result")).toHaveText(/^Copied/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expect(page.locator(".key-row", { hasText: "studio e2e" })).toBeVisible();
    await shoot(page, "keys");
    await page.getByRole("button", { name: "I have saved it: hide the secret" }).click();
    await expect(page.locator("#new-key")).toBeHidden();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Revoke key studio e2e" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this key?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Keep the key" })).toBeFocused();
    await shoot(page, "revoke-dialog");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(page.locator("#key-result")).toContainText("is revoked");
    await expect(page.locator(".revoked-keys summary")).toHaveText("Revoked keys (1)");
    await page.reload();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/studio\/sign-in\?signed_out=1$/);
    await page.goto(`${studio.url}/studio/keys`);
    await expect(page).toHaveURL(/\/studio\/sign-in\?next=%2Fstudio%2Fkeys$/);
  });

  expect(errors).toEqual([]);
});
