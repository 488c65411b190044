// The integrator's runnable example (examples/web-call, `npm run example`) end to end in Debian's
// Chromium against the real portal and its local box, the model a local fake: its page, on another
// origin, connects through the client library; frames play, a talk is heard, a chat answers, and
// the model's call of the page's tool is answered by the page (the model's next request carries it).
import { expect, shootExample, startCall, startExample, talk, test } from "./example-fixture.ts";

test("the web-call example: video, a talk heard, a chat whose tool call the page answers", async ({ page, studio, examplePort }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const example = await startExample(page, studio, examplePort);
  try {
    expect(example.output.join("\n")).not.toContain("does not let");
    await page.goto(example.url);
    await expect(page.locator("#box-note")).toHaveText(`Box: ${studio.url}, which lets this page (${example.url}) in.`);
    await expect(page.locator("#model-note")).toHaveText("Chat: the language model is ready.");

    await startCall(page);
    await talk(page, "Hello from the web example.");

    const from = studio.model.requests.length;
    studio.model.enqueue(
      [{ toolCall: { name: "lookup_order", args: { order_id: "A17" } } }],
      [{ text: "Your order A17 shipped on Monday." }],
    );
    await page.getByLabel(/^Chat:/).fill("Where is my order A17?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.locator("#conversation")).toContainText("Avatar: Your order A17 shipped on Monday.");
    const events = page.locator("#events");
    // In the order it happened: the call, the page's answer, the box's word that it completed.
    await expect(events).toContainText(/Tool lookup_order completed in \d+ ms\./);
    const said = await events.locator("li").allTextContents();
    const at = (re: RegExp) => said.findIndex((t) => re.test(t));
    expect(at(/^The model calls the tool lookup_order\.$/)).toBeGreaterThanOrEqual(0);
    expect(at(/^lookup_order \{"order_id":"A17"\}: this page answered "shipped on Monday"\.$/)).toBeGreaterThan(
      at(/^The model calls the tool lookup_order/),
    );
    expect(at(/^Tool lookup_order completed in \d+ ms\.$/)).toBeGreaterThan(at(/^lookup_order \{/));
    // The model's next request carries the page's answer.
    const asked = studio.model.requests.slice(from).filter((r) => r.path.startsWith("/v1/chat/completions"));
    const toolMessage = (asked[1]?.body.messages as { role: string; content: string }[] | undefined)
      ?.filter((m) => m.role === "tool")
      .at(-1);
    expect(JSON.parse(toolMessage?.content ?? "null")).toEqual({ application_data: { order_id: "A17", status: "shipped on Monday" } });

    await shootExample(page, "web-call");
    await page.getByRole("button", { name: "End call" }).click();
    await expect(page.locator("#call-state")).toHaveText("The call ended.");
    expect(errors).toEqual([]);
  } finally {
    example.stop();
  }
});
