// BOX_PERCEPTION and BOX_VISION_MODELS as the box reads them.
import { describe, expect, it } from "vitest";
import { readBoxEnv } from "../env.ts";
import { DEFAULT_VISION_MODELS } from "../llm/vision-models.ts";

describe("BOX_PERCEPTION, BOX_VISION_MODELS", () => {
  it("perception is on by default, off with off, and anything else is refused", () => {
    expect(readBoxEnv({}).perception).toBe(true);
    expect(readBoxEnv({ BOX_PERCEPTION: "off" }).perception).toBe(false);
    expect(() => readBoxEnv({ BOX_PERCEPTION: "maybe" })).toThrow(/BOX_PERCEPTION/);
  });
  it("vision models: the built-in families by default, a comma list when set, none when empty", () => {
    expect(readBoxEnv({}).visionModels).toEqual([...DEFAULT_VISION_MODELS]);
    expect(readBoxEnv({ BOX_VISION_MODELS: "my-llava*, qwen2.5vl:7b" }).visionModels).toEqual(["my-llava*", "qwen2.5vl:7b"]);
    expect(readBoxEnv({ BOX_VISION_MODELS: "" }).visionModels).toEqual([]);
  });
});
