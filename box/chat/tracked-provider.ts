// Implements: Readiness (`llm_state`): every streamed reply, whoever asks for it, reports to its
// provider's health, so a provider failing after boot is seen and its next success is too.
import { isOutage } from "../readiness/upstream-health.ts";
import type { ChatEvent, ChatRequest, LlmProvider } from "../llm/types.ts";

export interface StreamOutcome {
  succeeded(): void;
  /** Only outages arrive here (isOutage); refusals of one request and the caller's abort do not. */
  failed(err: unknown, model: string): void;
}

export function trackedProvider(provider: LlmProvider, outcome: StreamOutcome): LlmProvider {
  return {
    id: provider.id,
    models: () => provider.models(),
    probe: (modelId) => provider.probe(modelId),
    stream: (req) => tracked(provider.stream(req), req, outcome),
    warm: async () => provider.warm?.(),
  };
}

async function* tracked(inner: AsyncIterable<ChatEvent>, req: ChatRequest, outcome: StreamOutcome): AsyncGenerator<ChatEvent> {
  let events = 0;
  let settled = false;
  try {
    for await (const ev of inner) {
      events++;
      yield ev;
    }
    settled = true;
    outcome.succeeded();
  } catch (err) {
    settled = true;
    if (isOutage(err) && !req.signal?.aborted) outcome.failed(err, req.model);
    throw err;
  } finally {
    // The caller stopped reading early (enough words): the provider was answering.
    if (!settled && events > 0) outcome.succeeded();
  }
}
