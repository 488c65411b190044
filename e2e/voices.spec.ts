// The Voices page end to end in Debian's Chromium: the real portal (`bun portal/main.ts`) with its
// local box, both pointed at a local ElevenLabs and Cartesia speaking the providers' protocols
// (box/tts/*/testing/: the portal's key check and the box's voices, speech and key check all go
// there). A wrong key is refused and nothing is saved; the right one is saved and only its hint is
// ever on the page; choosing ElevenLabs makes the box speak with it (the live page offers its
// voices, a sample plays); a key ElevenLabs stops taking shows the box's voice notice; removing the key asks first and the choice falls back to the built-in
// voice; with the box stopped the page says so and a key still saves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test as base, expect } from "@playwright/test";
import { FakeOpenAi } from "../box/llm/testing/fake-openai.ts";
import { FakeCartesia } from "../box/tts/cartesia/testing/fake-cartesia.ts";
import { FakeElevenLabs } from "../box/tts/elevenlabs/testing/fake-elevenlabs.ts";
import { startPortalProcess } from "../portal/testing/portal-process.ts";
import { ADMIN, shoot, signIn, SIZES, type Studio } from "./studio-fixture.ts";

const RIGHT_KEY = "sk_e2evoices0123456789abcdef0123456789abcdefW9kP";
const WRONG_KEY = "sk_wrongkey0123456789abcdef0123456789abcdef0000";

interface VoicesStudio extends Studio {
  elevenlabs: FakeElevenLabs;
}

/** `studio-fixture.ts`'s portal, with the provider fakes behind both the portal's key check and the box. */
const test = base.extend<{}, { studio: VoicesStudio }>({
  studio: [
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), "studio-voices-e2e-"));
      const model = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "Yes." }] });
      const elevenlabs = await FakeElevenLabs.start({ apiKey: RIGHT_KEY });
      const cartesia = await new FakeCartesia().listen();
      const portal = await startPortalProcess({
        BOX_OPENAI_BASE_URL: model.url,
        PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
        PORTAL_DATA_DIR: dir,
        PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
        PORTAL_BOX_DATA_DIR: join(dir, "box"),
        PORTAL_GPU_DRIVER: "local",
        PORTAL_ADMIN_EMAILS: ADMIN,
        PORTAL_ELEVENLABS_BASE_URL: elevenlabs.url,
        PORTAL_CARTESIA_BASE_URL: cartesia.url,
        // The local box inherits the portal's environment.
        BOX_ELEVENLABS_BASE_URL: elevenlabs.url,
        BOX_CARTESIA_BASE_URL: cartesia.url,
      });
      await use({ url: portal.url, portal, model, dir, elevenlabs });
      await portal.stop();
      await Promise.all([model.close(), elevenlabs.close(), cartesia.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

test("the Voices page: a refused key, a saved key never shown, the engine chosen and used, the key removed", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio);

  const card = (id: string) => page.locator(`#voice-card-${id}`);
  const state = (id: string) => card(id).locator('[data-role="state"]');
  const keyLine = (id: string) => card(id).locator('[data-role="key"]');
  const result = (id: string) => card(id).locator('[data-role="result"]');
  const keyResult = (id: string) => card(id).locator('[data-role="key-result"]');
  const saved = async () =>
    (
      (await (await page.request.get(`${studio.url}/auth/voice/settings`)).json()) as {
        voice: { engine: string; keys: { provider: string }[] };
      }
    ).voice;
  const neverTheKey = async () => {
    expect(await page.content()).not.toContain(RIGHT_KEY);
    expect(await page.locator("body").innerText()).not.toContain(RIGHT_KEY);
  };
  const saveKey = async (id: string, key: string) => {
    await card(id)
      .getByLabel(/API key$/)
      .fill(key);
    await card(id)
      .getByRole("button", { name: /^(Save|Replace) key$/ })
      .click();
  };

  await test.step("no keys saved; the built-in voice works and is the engine", async () => {
    await page.getByRole("link", { name: "Voices" }).click();
    await expect(page).toHaveURL(/\/studio\/voices$/);
    await expect(keyLine("elevenlabs")).toHaveText("No key saved.");
    await expect(keyLine("cartesia")).toHaveText("No key saved.");
    await expect(state("espeak")).toHaveText("Works now");
    await expect(state("elevenlabs")).toHaveText("Needs your key");
    await expect(page.locator("#engine-espeak")).toBeChecked();
    await expect(page.locator("#engine-elevenlabs")).toBeDisabled();
    await expect(card("chatterbox")).toBeHidden(); // this box has no Chatterbox
    await expect(card("elevenlabs").getByRole("link", { name: /ElevenLabs dashboard/ })).toHaveAttribute(
      "href",
      "https://elevenlabs.io/app/settings/api-keys",
    );
    await shoot(page, "voices");
  });

  await test.step("a wrong key: ElevenLabs refuses it and nothing is saved", async () => {
    await saveKey("elevenlabs", WRONG_KEY);
    await expect(keyResult("elevenlabs")).toContainText(
      "Rejected by the provider: ElevenLabs refused this key (invalid_api_key); it was not saved.",
    );
    // Said next to the key's form, and brought into view.
    await expect(keyResult("elevenlabs")).toBeInViewport();
    await expect(keyLine("elevenlabs")).toHaveText("No key saved.");
    expect((await saved()).keys).toEqual([]);
    expect(studio.elevenlabs.of("user").map((r) => r.headers["xi-api-key"])).toEqual([WRONG_KEY]);
  });

  await test.step("the right key: accepted, saved, only its hint on the page", async () => {
    await saveKey("elevenlabs", RIGHT_KEY);
    await expect(keyResult("elevenlabs")).toContainText("Accepted: ElevenLabs accepted the key and it is saved as ••••••••W9kP.");
    await expect(keyLine("elevenlabs")).toHaveText("Saved: ••••••••W9kP, accepted by ElevenLabs.");
    await expect(card("elevenlabs").getByLabel("New ElevenLabs API key")).toHaveValue("");
    await expect(state("elevenlabs")).toHaveText("Not in use");
    await expect(page.locator("#engine-elevenlabs")).toBeEnabled();
    await neverTheKey();
    await page.reload();
    await expect(keyLine("elevenlabs")).toHaveText("Saved: ••••••••W9kP, accepted by ElevenLabs.");
    await neverTheKey();
    expect((await saved()).keys.map((k) => k.provider)).toEqual(["elevenlabs"]);
  });

  await test.step("choose ElevenLabs: the box speaks with it, a sample plays, the live page offers its voices", async () => {
    // From the keyboard: arrow to ElevenLabs in the radio group, Tab to the button, Enter.
    await page.locator("#engine-espeak").focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.locator("#engine-elevenlabs")).toBeChecked();
    await expect(page.locator("#engine-elevenlabs")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Use this engine" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#engine-result")).toHaveText("ElevenLabs now speaks in your sessions.");
    await expect(card("elevenlabs").locator('[data-role="chosen"]')).toBeVisible();
    expect((await saved()).engine).toBe("elevenlabs");
    // The box re-reads a person's choice within seconds; the page asks again until it has.
    await expect(state("elevenlabs")).toHaveText("Works now", { timeout: 30_000 });
    await expect(card("elevenlabs").locator('[data-role="reason"]')).toHaveText(/^\d+ voices\.$/);
    await expect(page.locator('[data-notice="voice"]')).toHaveCount(0);

    const speechBefore = studio.elevenlabs.of("speech").length;
    await card("elevenlabs").getByRole("button", { name: "Play a sample" }).click();
    await expect(result("elevenlabs")).toContainText(/Playing a sample of ElevenLabs|The sample of ElevenLabs is ready/);
    await expect(card("elevenlabs").locator("audio")).toHaveAttribute("src", /^blob:/);
    // Spoken by ElevenLabs with the key the person saved.
    const speech = studio.elevenlabs.of("speech").slice(speechBefore);
    expect(speech.length).toBeGreaterThan(0);
    expect(speech.every((r) => r.headers["xi-api-key"] === RIGHT_KEY)).toBe(true);
    await shoot(page, "voices-chosen");

    await page.getByRole("link", { name: "Live" }).click();
    const provider = page.locator('#provider option[value="elevenlabs"]');
    await expect(provider).toBeAttached();
    await expect(provider).toBeEnabled();
    await page.locator("#provider").selectOption("elevenlabs");
    await expect(page.locator("#voice option", { hasText: "George" })).toBeAttached();
    await neverTheKey();
  });

  await test.step("the key stops working at ElevenLabs: the page shows the box's voice notice until it works again", async () => {
    await page.getByRole("link", { name: "Voices" }).click();
    await expect(state("elevenlabs")).toHaveText("Works now");
    studio.elevenlabs.fault = "invalid_key";
    const notice = page.locator('[data-notice="voice"]');
    // The box checks a working key with ElevenLabs at most every couple of seconds; ask until it has.
    await expect(async () => {
      await page.getByRole("button", { name: "Check again" }).click();
      await expect(notice).toContainText("Your ElevenLabs key could not be used", { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(notice).toContainText("replies are spoken with the box's own voice");
    await expect(state("elevenlabs")).toHaveText("Key problem");
    await expect(card("elevenlabs").locator('[data-role="reason"]')).toContainText("Your ElevenLabs key could not be used");
    await expect(card("elevenlabs").getByRole("button", { name: "Play a sample" })).toBeDisabled();
    await shoot(page, "voices-notice");
    studio.elevenlabs.fault = null;
    // The box tries a failing key again after a short pause; ask until it has.
    await expect(async () => {
      await page.getByRole("button", { name: "Check again" }).click();
      await expect(notice).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(state("elevenlabs")).toHaveText("Works now");
  });

  await test.step("remove the key after confirming: the choice falls back to the built-in voice", async () => {
    await expect(keyLine("elevenlabs")).toHaveText("Saved: ••••••••W9kP, accepted by ElevenLabs.");
    await card("elevenlabs").getByRole("button", { name: "Remove key" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove your ElevenLabs key?" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("••••••••W9kP");
    await expect(dialog).toContainText("they speak with espeak-ng (built in) instead");
    await expect(dialog.getByRole("button", { name: "Keep the key" })).toBeFocused();
    await shoot(page, "voices-remove");
    await dialog.getByRole("button", { name: "Remove key" }).click();
    await expect(result("elevenlabs")).toHaveText("Your ElevenLabs key was removed from the portal.");
    await expect(page.locator("#engine-result")).toHaveText(
      "ElevenLabs was the engine of your sessions; without its key they now speak with espeak-ng (built in).",
    );
    await expect(page.locator("#engine-espeak")).toBeChecked();
    await expect(page.locator("#engine-elevenlabs")).toBeDisabled();
    await expect(keyLine("elevenlabs")).toHaveText("No key saved.");
    await expect(state("elevenlabs")).toHaveText("Needs your key");
    expect(await saved()).toMatchObject({ engine: "espeak", keys: [] });
  });

  await test.step("the box stopped: the page says so, and a key still saves on the portal", async () => {
    expect((await page.request.post(`${studio.url}/auth/gpu/stop`)).status()).toBe(200);
    await page.reload();
    const notice = page.locator('[data-notice="box"]');
    await expect(notice).toContainText("The box is");
    await expect(notice).toContainText("Your keys and engine choice still save here");
    await expect(notice.getByRole("link", { name: "GPU page" })).toHaveAttribute("href", "/studio/gpu");
    await expect(state("espeak")).toHaveText("Unknown");
    await expect(card("espeak").getByRole("button", { name: "Play a sample" })).toBeDisabled();
    await saveKey("elevenlabs", RIGHT_KEY);
    await expect(keyResult("elevenlabs")).toContainText("Accepted:");
    await expect(keyLine("elevenlabs")).toHaveText("Saved: ••••••••W9kP, accepted by ElevenLabs.");
    await neverTheKey();
    await shoot(page, "voices-box-stopped");
  });

  expect(errors).toEqual([]);
});
