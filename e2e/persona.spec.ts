// The live page's persona panel end to end in Debian's Chromium, against the real portal and its
// local box (the model a local fake speaking OpenAI's protocol): prompt, model and emotion saved
// and read back after a reload; a custom tool saved with the answer this page gives; bad tools
// refused (by the page, and by the box) with nothing stored; then a Chat turn whose tool call is
// answered by the page (the model's next request carries the answer), and a handler registered
// from the console that throws (the model is told "The tool failed.").
import type { Page } from "@playwright/test";
import { expect, shoot, signIn, SIZES, test, type Studio } from "./studio-fixture.ts";

// Its own person, so its settings never meet another spec's in the same worker.
const EMAIL = "persona@example.com";
const PROMPT = "You are Ada, who answers questions about orders. Keep it short.";
const PARAMETERS = '{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}';

/** The box's record for the signed-in person, read with a credential minted by the portal for this page. */
function boxSettings(
  page: Page,
): Promise<{ system_prompt: string; model: string; emotion_responsive: boolean; tools: { name: string }[]; system_tools?: string[] }> {
  return page.evaluate(async () => {
    const grant = await (await fetch("/auth/session/credential", { method: "POST", headers: { accept: "application/json" } })).json();
    const res = await fetch("/api/settings", { headers: { authorization: `Bearer ${grant.credential.secret}` } });
    return (await res.json()).settings;
  });
}

/** The chat-completion requests the model received since `from`, and the tool message of the second. */
function toolResultSent(studio: Studio, from: number): unknown {
  const asked = studio.model.requests.slice(from).filter((r) => r.path.startsWith("/v1/chat/completions"));
  expect(asked.length, "the model was asked twice: the call, then with its result").toBeGreaterThanOrEqual(2);
  const tool = (asked[1].body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool").at(-1);
  expect(tool, "the second request carries a tool message").toBeTruthy();
  return JSON.parse(tool!.content);
}

const row = (page: Page, i: number) => page.locator("#persona-tools > li").nth(i);

test("the persona panel: prompt, model, emotion and custom tools, answered by the page", async ({ page, studio }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio, EMAIL);

  const result = page.locator("#persona-result");
  const save = page.getByRole("button", { name: "Save the persona" });

  await test.step("write a prompt, pick the model, switch emotion off, save, reload", async () => {
    await page.locator("#persona-panel > summary").click();
    await expect(page.locator("#persona-model option[value='fake-chat']")).toBeAttached();
    await expect(page.locator("#persona-model-facts")).toContainText("fake-chat");
    await expect(page.getByLabel("Emotion responsiveness")).toBeChecked();
    await page.getByLabel("System prompt").fill(PROMPT);
    await expect(page.locator("#persona-prompt-count")).toHaveText(`${PROMPT.length} of 100,000 characters`);
    await page.getByLabel("Quality model").selectOption("fake-chat");
    await page.getByLabel("Emotion responsiveness").uncheck();
    await page.locator("#system-tool-pause_conversation").uncheck();
    await expect(result).toHaveText(/Unsaved changes/);
    await save.click();
    await expect(result).toHaveText("Saved.");
    expect(await boxSettings(page)).toMatchObject({
      system_prompt: PROMPT,
      model: "fake-chat",
      emotion_responsive: false,
      system_tools: ["end_call", "skip_turn", "change_language"],
    });

    await page.reload();
    // The panel stays open across the reload and shows what the box keeps.
    await expect(page.getByLabel("System prompt")).toHaveValue(PROMPT);
    await expect(page.getByLabel("Quality model")).toHaveValue("fake-chat");
    await expect(page.getByLabel("Emotion responsiveness")).not.toBeChecked();
    await expect(page.locator("#system-tool-pause_conversation")).not.toBeChecked();
    await expect(page.locator("#system-tool-end_call")).toBeChecked();
    // Saving again with nothing changed sends nothing.
    await save.click();
    await expect(result).toHaveText("Nothing to save: nothing changed.");
  });

  await test.step("add a custom tool with the answer this page gives", async () => {
    await page.getByRole("button", { name: "Add a tool" }).click();
    const tool = row(page, 0);
    await expect(tool.getByLabel("Name", { exact: true })).toBeFocused();
    await tool.getByLabel("Name", { exact: true }).fill("lookup_order");
    await tool.getByLabel("Description").fill("Looks up an order by its number and says where it is.");
    await tool.getByLabel("Parameters").fill(PARAMETERS);
    await expect(tool.getByLabel("Answer this page gives (JSON)")).toHaveValue('{"ok": true}');
    await tool.getByLabel("Answer this page gives (JSON)").fill('{"status":"shipped"}');
    await expect(tool.locator("legend")).toHaveText("Tool 1: lookup_order");
    await save.click();
    await expect(result).toHaveText("Saved.");
    expect((await boxSettings(page)).tools).toEqual([
      {
        name: "lookup_order",
        description: "Looks up an order by its number and says where it is.",
        parameters: JSON.parse(PARAMETERS),
        mode: "await_result",
        timeout_seconds: 8,
        enabled: true,
      },
    ]);
  });

  await test.step("bad tools are refused with the problem named, and nothing is stored", async () => {
    await page.getByRole("button", { name: "Add a tool" }).click();
    const bad = row(page, 1);
    await bad.getByLabel("Name", { exact: true }).fill("track parcel");
    await bad.getByLabel("Description").fill("Tracks a parcel.");
    await save.click();
    // Checked on the page, in the box's words: nothing was sent.
    await expect(bad.locator(".field-error").first()).toHaveText(
      "Tool 2: the tool name must start with a lowercase letter and use only lowercase letters, digits and underscores.",
    );
    await expect(bad.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(result).toHaveText("Nothing was sent: fix the marked fields first.");

    await bad.getByLabel("Name", { exact: true }).fill("track_parcel");
    await bad.getByLabel("Parameters").fill("{type: object}");
    await save.click();
    await expect(bad.locator("[id$=-parameters-error]")).toContainText("Tool 2 (track_parcel): parameters are not valid JSON");
    await expect(bad.locator("[id$=-name-error]")).toBeHidden();

    // A schema only the box can judge: its own message, by the tool's parameters.
    await bad.getByLabel("Parameters").fill('{"type":"object","additionalProperties":false}');
    await save.click();
    await expect(bad.locator("[id$=-parameters-error]")).toHaveText(
      /^Tool 2 \(track_parcel\): parameters uses the keyword "additionalProperties"; only type, description, properties, required, enum and items are allowed\.$/,
    );
    await expect(result).toHaveText("Nothing was saved: the box refused it (see the marked field).");
    await expect(bad.getByLabel("Parameters")).toBeFocused();
    await shoot(page, "persona-refused");
    expect((await boxSettings(page)).tools.map((t) => t.name)).toEqual(["lookup_order"]);

    await bad.getByRole("button", { name: "Remove this tool" }).click();
    await expect(page.locator("#persona-tools > li")).toHaveCount(1);
    await expect(result).toHaveText("");

    // After a reload: the stored tool, with the answer this page keeps for it.
    await page.reload();
    await expect(page.locator("#persona-tools > li")).toHaveCount(1);
    await expect(row(page, 0).getByLabel("Name", { exact: true })).toHaveValue("lookup_order");
    await expect(row(page, 0).getByLabel("Parameters")).toHaveValue(JSON.stringify(JSON.parse(PARAMETERS), null, 2));
    await expect(row(page, 0).getByLabel("Answer this page gives (JSON)")).toHaveValue('{"status":"shipped"}');
  });

  await test.step("a Chat turn: the model calls the tool and the page answers it", async () => {
    const from = studio.model.requests.length;
    studio.model.enqueue([{ toolCall: { name: "lookup_order", args: { order_id: "A17" } } }], [{ text: "Your order has shipped." }]);
    await page.getByLabel("Message").fill("Where is my order A17?");
    await page.getByRole("button", { name: "Send" }).click();
    const captions = page.locator("#captions");
    await expect(captions).toContainText("Your order has shipped.");
    await expect(captions.locator(".chip", { hasText: "Tool call lookup_order" })).toHaveText('Tool call lookup_order {"order_id":"A17"}');
    await expect(captions.locator(".chip", { hasText: "Answered lookup_order" })).toHaveText('Answered lookup_order: {"status":"shipped"}');
    // Shown as it happened: the call, then the answer.
    const chips = await captions.locator(".chip").allTextContents();
    expect(chips.findIndex((c) => c.startsWith("Tool call"))).toBeLessThan(chips.findIndex((c) => c.startsWith("Answered")));
    await expect(page.locator("#event-log")).toContainText("Tool call lookup_order completed");
    expect(toolResultSent(studio, from)).toEqual({ application_data: { status: "shipped" } });
    await shoot(page, "persona");
  });

  await test.step("a handler registered from the console that throws: the model hears that the tool failed", async () => {
    await page.evaluate(() => {
      (window as unknown as { offLookup: () => void }).offLookup = window.avatarStudio!.registerTool("lookup_order", () => {
        throw new Error("the order database is down");
      });
    });
    const from = studio.model.requests.length;
    studio.model.enqueue(
      [{ toolCall: { name: "lookup_order", args: { order_id: "B2" } } }],
      [{ text: "Sorry, I could not look that order up." }],
    );
    await page.getByLabel("Message").fill("And order B2?");
    await page.getByRole("button", { name: "Send" }).click();
    const captions = page.locator("#captions");
    await expect(captions).toContainText("Sorry, I could not look that order up.");
    await expect(captions.locator(".chip.failed", { hasText: "Answered lookup_order" })).toHaveText(
      "Answered lookup_order: not done — The tool failed.",
    );
    await expect(captions.locator(".chip.failed", { hasText: "Tool lookup_order failed" })).toHaveText(
      "Tool lookup_order failed: the page answered that it could not be done",
    );
    await expect(page.locator("#event-log")).toContainText("the handler's error: the order database is down");
    expect(toolResultSent(studio, from)).toEqual({ application_data: { error: "The tool failed." } });

    // Unregistered, the panel's answer is given again.
    await page.evaluate(() => (window as unknown as { offLookup: () => void }).offLookup());
    const again = studio.model.requests.length;
    studio.model.enqueue([{ toolCall: { name: "lookup_order", args: { order_id: "C3" } } }], [{ text: "That one has shipped too." }]);
    await page.getByLabel("Message").fill("And C3?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(captions).toContainText("That one has shipped too.");
    expect(toolResultSent(studio, again)).toEqual({ application_data: { status: "shipped" } });

    await page.getByRole("button", { name: "End call" }).click();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
  });

  expect(errors).toEqual([]);
});
