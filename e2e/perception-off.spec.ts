// Perception end to end (issue 27 item 5): with BOX_PERCEPTION=off on the box, the live studio's
// Camera toggle still sends Chromium's fake camera in the call's offer, the box answers that m-line
// `inactive`, and the fake OpenAI-protocol model (listed in BOX_VISION_MODELS, so only the switch
// holds the picture back) receives no picture and no camera line with the person's words; the page
// says the box does not look instead of "The avatar sees your camera".
import { launchWith } from "./chromium.ts";
import { chatTurn, pictureIn, systemOf } from "./perception-turns.ts";
import { expect, signIn, test } from "./studio-fixture.ts";

test.use({
  studioEnv: { BOX_PERCEPTION: "off", BOX_VISION_MODELS: "fake-chat" },
  launchOptions: launchWith("--use-fake-device-for-media-stream"),
});

test("BOX_PERCEPTION=off: the camera's m-line is answered inactive and the model gets no picture", async ({ page, context, studio }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["camera"], { origin: studio.url });
  await signIn(page, studio, "eyes-off@example.com");
  await page.getByRole("button", { name: "Camera", exact: true }).click();
  await expect(page.getByRole("button", { name: "Camera", exact: true })).toHaveAttribute("aria-pressed", "true");

  const connect = page.waitForResponse((r) => new URL(r.url()).pathname === "/connect" && r.request().method() === "POST");
  await page.getByRole("button", { name: "Start call" }).click();
  const answer = (await (await connect).json()) as { sdp: string };
  // The third m-line is the camera's: received by nobody.
  const mlines = answer.sdp.split(/\r?\n(?=m=)/).slice(1);
  expect(mlines).toHaveLength(3);
  expect(mlines[2]).toMatch(/^m=video/);
  expect(mlines[2]).toMatch(/a=inactive/);
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  // The page does not claim the avatar sees the person.
  await expect(page.locator("#camera-status")).toHaveText(
    "This box does not look at cameras or screens (its perception is switched off): nothing is sent to it.",
  );

  for (const text of ["Can you see me?", "And now?", "What am I holding?"]) {
    const rec = await chatTurn(page, studio, text);
    expect(pictureIn(rec), `no picture with "${text}"`).toBeNull();
    expect(systemOf(rec)).not.toContain("camera");
    expect(JSON.stringify(rec.body)).not.toContain("[picture seen]");
  }
});
