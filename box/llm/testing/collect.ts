// Test helpers: drain a provider stream, and capture what it threw.
import type { ChatEvent, ChatRequest } from "../types.ts";

export async function collect(stream: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

export async function failure(stream: AsyncIterable<ChatEvent>): Promise<{ error: any; events: ChatEvent[] }> {
  const events: ChatEvent[] = [];
  try {
    for await (const ev of stream) events.push(ev);
  } catch (error) {
    return { error, events };
  }
  throw new Error(`stream did not fail; events: ${JSON.stringify(events)}`);
}

export function textOf(events: ChatEvent[]): string {
  return events.map((e) => (e.type === "text" ? e.text : "")).join("");
}

export function baseRequest(model: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model, system: "You are terse.", messages: [{ role: "user", content: "Hello" }], maxTokens: 64, ...extra };
}
