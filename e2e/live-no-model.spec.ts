// The live page on a box with no language model: Talk is the default, Chat says why before
// anyone types, and a Chat send keeps the person's words and says why beside the box (aria-live)
// with the way out (switch to Talk; the command to give the box a model); the persona's model
// fields say what to run; with the box stopped, its banner shows and Start call stays in view.
import { join } from "node:path";
import { expect, SHOTS, shoot, signIn, test } from "./studio-fixture.ts";
import { fold, LAPTOP, PHONE, startCall, videoArea as video, wholeInView } from "./live-view.ts";

test.use({ studioEnv: { BOX_OPENAI_BASE_URL: "" } });

test("Talk is the default, Chat says why, a refused send keeps the words and says why by the box", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(LAPTOP);
  await page.addInitScript(() => localStorage.setItem("studio.mode", "chat"));
  await signIn(page, studio);
  await expect(page.locator("#readiness")).toContainText("Language model: not configured");

  await test.step("Talk is taken and Chat says why, before anyone types", async () => {
    await expect(page.getByRole("radio", { name: /Talk/ })).toBeChecked();
    await expect(page.locator("#chat-unavailable")).toBeVisible();
    await expect(page.locator("#chat-unavailable")).toContainText("Chat is unavailable: it needs a language model, and this box has none.");
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      expect(await wholeInView(page, startCall(page)), `Start call at ${size.width}x${size.height}`).toBe("in view");
    }
    await fold(page, "no-model");
    await shoot(page, "live-no-model");
  });

  await test.step("a Chat send keeps the words and says why beside the box", async () => {
    await page.setViewportSize(PHONE);
    await page.getByText("Chat", { exact: true }).click();
    await page.getByLabel("Message").fill("What is the weather like?");
    await page.getByLabel("Message").press("Enter");
    const why = page.locator("#turn-error");
    await expect(why).toContainText("Not sent: Chat needs a language model, and this box has none.");
    await expect(why).toContainText("BOX_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 npm start");
    await expect(why).toHaveAttribute("aria-live", "assertive");
    await expect(page.getByLabel("Message")).toHaveValue("What is the weather like?");
    expect(await wholeInView(page, why), "the reason is beside the box, in view").toBe("in view");
    await expect(page.locator("#captions")).not.toContainText("What is the weather like?");
    await page.screenshot({ path: join(SHOTS, "live-chat-refused-390x844.png") });
    await why.getByText("How to give the box a model").click();
    await expect(why.locator("code")).toHaveText("BOX_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 npm start");
    await expect(why.locator("code")).toBeVisible();
    await page.screenshot({ path: join(SHOTS, "live-chat-refused-how-390x844.png") });
    await why.getByRole("button", { name: "Switch to Talk" }).click();
    await expect(page.getByRole("radio", { name: /Talk/ })).toBeChecked();
    await expect(why).toBeEmpty();
    await expect(page.getByLabel("Message")).toBeFocused();
    await expect(page.getByLabel("Message")).toHaveValue("What is the weather like?");
  });

  await test.step("the persona's models say what to run, and where to pick the model after", async () => {
    await page.setViewportSize(LAPTOP);
    await page.locator("#persona-panel summary").click();
    await expect(page.locator("#persona-model option")).toHaveText(["None: this box has no models"]);
    await expect(page.locator("#persona-models-none")).toContainText("BOX_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 npm start");
    await expect(page.locator("#persona-models-none")).toContainText("pick the model under Persona");
    await expect(page.locator("#persona-builtin-tools")).not.toContainText("lookup_wikipedia");
  });

  await test.step("with the box stopped, its banner shows and Start call is still in view", async () => {
    expect((await page.request.post(`${studio.url}/auth/gpu/stop`)).status()).toBe(200);
    await page.reload();
    await expect(page.locator('[data-notice="box"]')).toContainText("The box is stopped");
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      expect(await wholeInView(page, startCall(page)), `Start call at ${size.width}x${size.height}`).toBe("in view");
      expect(await wholeInView(page, video(page)), `the video at ${size.width}x${size.height}`).toBe("in view");
    }
    await fold(page, "box-stopped");
    expect((await page.request.post(`${studio.url}/auth/gpu/start`)).status()).toBe(200);
  });
  expect(errors).toEqual([]);
});
