// The web-call example with no model on the box (BOX_OPENAI_BASE_URL empty): its page says that
// Chat needs a language model and keeps Send off, while a call and Talk still work.
import { expect, shootExample, startCall, startExample, talk, test } from "./example-fixture.ts";

test.use({ exampleEnv: { BOX_OPENAI_BASE_URL: "" } });

test("the page says Chat needs a model, and Talk still works", async ({ page, studio, examplePort }) => {
  test.setTimeout(120_000);
  const example = await startExample(page, studio, examplePort);
  try {
    await page.goto(example.url);
    await expect(page.locator("#model-note")).toContainText("Chat needs a language model, and this box has none");
    await startCall(page);
    await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
    await talk(page, "No model is needed to say this.");
    await shootExample(page, "web-call-no-model");
  } finally {
    example.stop();
  }
});
