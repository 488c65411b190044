// The live studio's microphone end to end: Chromium's fake microphone plays a WAV made here by
// espeak-ng and ffmpeg (silence, "hello there", a pause long enough for the avatar to start a long
// answer, then "please book a table for two" over it); the portal's local box recognises it with
// pocketsphinx on a grammar. The page shows the person's words as captions, the avatar's reply,
// the barge-in (the avatar stops and the new words become the next turn), the latency panel, and
// the microphone's level meter and "Hearing you" while the voice plays.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, SHOTS, shoot, signIn, test } from "./studio-fixture.ts";
import { launchWith } from "./chromium.ts";

const GRAMMAR = ["hello there", "please book a table for two"];

/** Mono 48 kHz WAV: 2.5 s silence, utterance one, 9 s silence, utterance two, 40 s silence. */
function makeMicWav(): string {
  const dir = mkdtempSync(join(tmpdir(), "studio-mic-"));
  const say = (name: string, text: string) => {
    const r = spawnSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", join(dir, `${name}.wav`), text]);
    if (r.status !== 0) throw new Error(`espeak-ng failed: ${r.stderr}`);
  };
  say("one", GRAMMAR[0]);
  say("two", GRAMMAR[1]);
  const out = join(dir, "mic.wav");
  const silence = (s: number) => ["-f", "lavfi", "-t", String(s), "-i", "anullsrc=r=48000:cl=mono"];
  const r = spawnSync("ffmpeg", [
    "-loglevel",
    "error",
    "-y",
    ...silence(2.5),
    "-i",
    join(dir, "one.wav"),
    ...silence(9),
    "-i",
    join(dir, "two.wav"),
    ...silence(40),
    "-filter_complex",
    "[0][1][2][3][4]concat=n=5:v=0:a=1,aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono[a]",
    "-map",
    "[a]",
    out,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return out;
}

// Made before the browser starts (its path is a launch flag); removed when the worker ends.
const MIC_WAV = makeMicWav();
process.on("exit", () => rmSync(join(MIC_WAV, ".."), { recursive: true, force: true }));

test.use({
  studioEnv: { BOX_ASR: "pocketsphinx", BOX_ASR_GRAMMAR: JSON.stringify(GRAMMAR) },
  launchOptions: launchWith("--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${MIC_WAV}%noloop`),
});

const LONG_ANSWER = [
  "Hello! It is lovely to hear from you this evening. ",
  "I can help you with bookings, opening hours, the menu, and anything else about the restaurant. ",
  "Tonight the kitchen is serving a slow roasted vegetable stew, fresh bread from the bakery next door, and a lemon tart. ",
  "Tell me what you would like to do and I will take care of it for you.",
];

test("the studio's microphone: captions, a spoken reply, and a barge-in over it", async ({ page, context, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await context.grantPermissions(["microphone"], { origin: studio.url });
  await signIn(page, studio);

  // Every request gets the answer of the turn under way (a dropped speculative request takes nothing).
  studio.model.always = LONG_ANSWER.map((text) => ({ text }));
  await expect(page.locator("#readiness")).toContainText("Voice: ready");
  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");

  // Opening the mic starts the fake device, which starts the WAV: the first words come 2.5 s later.
  await page.getByRole("button", { name: "Open mic" }).click();
  await expect(page.locator("#open-mic")).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("#event-log")).toContainText("Microphone socket ready");

  await test.step("the level meter moves with the voice, and the state says it hears you", async () => {
    await expect(page.locator("#mic-meter")).toHaveAttribute("data-on", "true");
    // Checked every frame: the words last about a second.
    await page.waitForFunction(() => Number(document.getElementById("mic-meter")!.getAttribute("aria-valuenow")) > 30, null, {
      polling: "raf",
      timeout: 20_000,
    });
    await page.waitForFunction(() => document.querySelector("#call-state .state-text")!.textContent === "Hearing you", null, {
      polling: "raf",
      timeout: 20_000,
    });
    await page.locator(".mic").screenshot({ path: join(SHOTS, "live-mic-meter.png") });
  });

  await test.step("the person's words become a caption and the avatar answers aloud", async () => {
    await expect(page.locator("#captions")).toContainText("hello there", { timeout: 20_000 });
    await expect(page.locator("#captions")).toContainText("It is lovely to hear from you", { timeout: 20_000 });
    studio.model.always = [{ text: "Of course. For what time would you like the table?" }];
    // "speaking" is read from the audio level arriving over WebRTC: the answer is heard.
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "speaking", { timeout: 20_000 });
    await expect(page.locator("#latency [data-latency=voice_turn]")).toHaveText(/^\d+ ms$/);
    await shoot(page, "live-mic");
  });

  await test.step("speaking over the avatar takes the floor back", async () => {
    await expect(page.locator("#event-log")).toContainText("You took the floor back", { timeout: 30_000 });
    // The latency panel: from the voice's onset (as this page sent it) to the avatar's audio going quiet here.
    await expect(page.locator("#latency [data-latency=barge_in]")).toHaveText(/^\d+ ms$/);
    await expect(page.locator("#captions")).toContainText("please book a table for two", { timeout: 20_000 });
    await expect(page.locator("#captions")).toContainText("For what time would you like the table?", { timeout: 20_000 });
    // The long answer was cut: its last sentence never became a caption.
    await expect(page.locator("#captions")).not.toContainText("I will take care of it for you");
    expect(studio.model.requests.filter((r) => r.path.endsWith("/chat/completions")).length).toBeGreaterThanOrEqual(2);
  });

  studio.model.always = null; // the fixture's model serves the worker's next tests
  await page.getByRole("button", { name: "End call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
  await expect(page.locator("#open-mic")).toHaveAttribute("aria-pressed", "false");
  expect(errors).toEqual([]);
});
