import { describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { buildCatalogue } from "../catalogue/catalogue.ts";
import { defaultSettings } from "./defaults.ts";
import {
  EFFORT_LEVELS,
  REASONING_LEVELS,
  SETTABLE_FIELDS,
  SettingsEnvelope,
  SettingsRefusal,
  SettingsWriteAnswer,
  VOICE_SLOT_FIELDS,
  voiceSlotField,
} from "../../shared/wire/settings.ts";

describe("settings schema", () => {
  it("names every field of the spec's settings record", () => {
    expect([...SETTABLE_FIELDS].sort()).toEqual(
      [
        "provider",
        "model",
        "live_model",
        "system_prompt",
        "max_tokens",
        "top_p",
        "temperature",
        "effort",
        "reasoning",
        "tts_provider",
        "voice_id",
        "voice_id_cartesia",
        "voice_id_chatterbox",
        "voice_id_espeak",
        "avatar",
        "emotion_responsive",
        "tool_phrases",
        "tools",
        "system_tools",
      ].sort(),
    );
  });

  it("keeps the bare voice_id for the first hosted provider and prefixes the rest", () => {
    expect(voiceSlotField("elevenlabs")).toBe("voice_id");
    expect(voiceSlotField("chatterbox")).toBe("voice_id_chatterbox");
    expect(VOICE_SLOT_FIELDS).toEqual(["voice_id", "voice_id_cartesia", "voice_id_chatterbox", "voice_id_espeak"]);
  });

  it("lists the spec's effort and reasoning levels", () => {
    expect(EFFORT_LEVELS).toEqual(["low", "medium", "high", "xhigh", "max"]);
    expect(REASONING_LEVELS).toEqual(["off", "low", "medium", "high"]);
  });

  it("describes the read envelope and the write answers", () => {
    const models = buildCatalogue([{ id: "au.anthropic.a", label: "A", provider: "anthropic", tiers: ["quality"] }], new Map(), {
      allowOffshore: false,
      inCountry: true,
    });
    const settings = defaultSettings(models);
    const envelope = {
      settings,
      models,
      effort_levels: [...EFFORT_LEVELS],
      reasoning_levels: [...REASONING_LEVELS],
      tts_providers: [{ id: "espeak", label: "eSpeak NG", local: true, byo: false, clone: false }],
      persisted: true,
    };
    expect(Value.Check(SettingsEnvelope, envelope)).toBe(true);
    expect(Value.Check(SettingsEnvelope, { ...envelope, persisted: "yes" })).toBe(false);
    expect(Value.Check(SettingsWriteAnswer, { ok: true, saved: false, settings })).toBe(true);
    expect(Value.Check(SettingsWriteAnswer, { ok: true, saved: false, settings: { ...settings, extra: 1 } })).toBe(false);
    expect(Value.Check(SettingsRefusal, { ok: false, error: { code: "setting_refused", message: "m" } })).toBe(true);
  });
});
