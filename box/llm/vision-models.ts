// Implements: docs/api-notes.md "Perception": which models are sent the person's picture. The
// box cannot ask a provider whether a model reads images (no list endpoint says so, and a probe
// with an image costs a paid call per model), so BOX_VISION_MODELS names them, with `*` wildcards;
// unset, the families below that read images on every provider the box speaks to. A model named
// here that refuses an image still answers: the turn retries once without it (turn-engine.ts).

/** Model ids (OpenAI-compatible, Anthropic, Bedrock; `*` matches anything) known to read images. */
export const DEFAULT_VISION_MODELS = [
  "claude-*",
  "*.anthropic.claude-*",
  "anthropic.claude-*",
  "gpt-4o*",
  "gpt-4.1*",
  "gpt-5*",
  "o3*",
  "o4*",
  "*.amazon.nova-lite*",
  "*.amazon.nova-pro*",
  "amazon.nova-lite*",
  "amazon.nova-pro*",
  "*llava*",
  "*vision*",
  "*-vl*",
  "*gemma3*",
  "*gemma-3*",
  "*pixtral*",
  "*minicpm-v*",
] as const;

/** Whether `modelId` matches one of `patterns` (case-insensitive; `*` is any run of characters). */
export function acceptsImages(modelId: string, patterns: readonly string[]): boolean {
  const id = modelId.toLowerCase();
  return patterns.some((p) => {
    const re = new RegExp(
      `^${p
        .toLowerCase()
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    return re.test(id);
  });
}
