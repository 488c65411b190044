import { describe, expect, it } from "vitest";
import { Value } from "@sinclair/typebox/value";
import { buildCatalogue } from "../catalogue/catalogue.ts";
import type { ModelDecl } from "../../shared/wire/catalogue.ts";
import { defaultSettings, DEFAULT_SYSTEM_PROMPT } from "./defaults.ts";
import { SettingsRecord } from "../../shared/wire/settings.ts";

const rows = (decls: ModelDecl[], allowOffshore = false) => buildCatalogue(decls, new Map(), { allowOffshore, inCountry: true });
const d = (id: string, tiers: ModelDecl["tiers"], provider = "anthropic"): ModelDecl => ({ id, label: id, provider, tiers });

describe("defaultSettings", () => {
  it("is a full, valid record with no models configured", () => {
    const s = defaultSettings([]);
    expect(Value.Check(SettingsRecord, s)).toBe(true);
    expect(s).toEqual({
      provider: "",
      model: "",
      live_model: "",
      system_prompt: DEFAULT_SYSTEM_PROMPT,
      max_tokens: 1024,
      top_p: null,
      temperature: null,
      effort: "medium",
      reasoning: null,
      tts_provider: "espeak",
      voice_id: null,
      voice_id_cartesia: null,
      voice_id_chatterbox: null,
      voice_id_espeak: null,
      avatar: "",
      emotion_responsive: true,
      tool_phrases: {},
      tools: [],
    });
  });

  it("leaves system_tools absent, meaning all four on", () => {
    expect("system_tools" in defaultSettings([])).toBe(false);
  });

  it("picks the first selectable quality row for model and fast row for live_model", () => {
    const c = rows([
      d("us.anthropic.q0", ["quality"]),
      d("au.meta.f1", ["fast"], "meta"),
      d("au.anthropic.q1", ["quality"]),
      d("au.anthropic.f2", ["fast"]),
    ]);
    const s = defaultSettings(c);
    expect([s.model, s.live_model, s.provider]).toEqual(["au.anthropic.q1", "au.meta.f1", "anthropic"]);
  });

  it("falls back to the first selectable row when no row has the tier", () => {
    const s = defaultSettings(rows([d("au.meta.x", [], "meta")]));
    expect([s.model, s.live_model, s.provider]).toEqual(["au.meta.x", "au.meta.x", "meta"]);
  });

  it("chooses no model when none is selectable", () => {
    const s = defaultSettings(rows([d("us.anthropic.q", ["quality", "fast"])]));
    expect([s.model, s.live_model, s.provider]).toEqual(["", "", ""]);
  });

  it("takes an offshore model when the deployment opts in", () => {
    expect(defaultSettings(rows([d("us.anthropic.q", ["quality"])], true)).model).toBe("us.anthropic.q");
  });

  it("takes options", () => {
    const s = defaultSettings([], { ttsProvider: "chatterbox", avatar: "av1", systemPrompt: "Be brief.", maxTokens: 300 });
    expect([s.tts_provider, s.avatar, s.system_prompt, s.max_tokens]).toEqual(["chatterbox", "av1", "Be brief.", 300]);
  });

  it("returns fresh objects each time", () => {
    const a = defaultSettings([]);
    a.tools.push({
      name: "x_tool",
      description: "x",
      parameters: { type: "object" },
      mode: "await_result",
      timeout_seconds: 8,
      enabled: true,
    });
    expect(defaultSettings([]).tools).toEqual([]);
  });
});
