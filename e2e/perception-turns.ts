// The perception e2e specs' turns: a Chat turn typed on the live studio page and the fake
// OpenAI-protocol model's request for it, read for its picture (`image_url`) and system prompt.
import type { Page } from "@playwright/test";
import type { RecordedRequest } from "../box/llm/testing/script.ts";
import { expect, type Studio } from "./studio-fixture.ts";

/** The JPEG of the last `image_url` part in a chat request, or null. */
export function pictureIn(rec: RecordedRequest | undefined): Buffer | null {
  const messages: { role: string; content: unknown }[] = (rec?.body as { messages?: [] })?.messages ?? [];
  for (const m of [...messages].reverse()) {
    if (!Array.isArray(m.content)) continue;
    const part = (m.content as { type: string; image_url?: { url: string } }[]).find((p) => p.type === "image_url");
    const url = part?.image_url?.url ?? "";
    if (url) return Buffer.from(url.replace(/^data:image\/jpeg;base64,/, ""), "base64");
  }
  return null;
}

export const systemOf = (rec: RecordedRequest | undefined) =>
  String((rec?.body as { messages?: { role: string; content: unknown }[] })?.messages?.find((m) => m.role === "system")?.content ?? "");
const chatRequests = (studio: Studio) => studio.model.requests.filter((r) => r.path.startsWith("/v1/chat/completions"));

/** Sends a Chat turn from the page (its reply numbered, so each turn's caption is its own) and answers the fake model's request for it. */
export async function chatTurn(page: Page, studio: Studio, text: string): Promise<RecordedRequest> {
  const before = chatRequests(studio).length;
  const reply = `I can see you, reply ${before + 1}.`;
  studio.model.enqueue([{ text: reply }]);
  await page.getByText("Chat", { exact: true }).click();
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("#captions")).toContainText(reply);
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  const after = chatRequests(studio);
  expect(after.length).toBeGreaterThan(before);
  return after.at(-1)!;
}
