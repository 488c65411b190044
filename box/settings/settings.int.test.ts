// Integration: POST/GET /api/settings on the real box — envelopes, refusals, persistence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";

const A = "settings_key_a";
const B = "settings_key_b";
const MODELS = JSON.stringify([
  { id: "us.anthropic.claude-big", label: "Big (US)", provider: "anthropic", tiers: ["quality"], released: "2026-01-01" },
  {
    id: "au.anthropic.claude-big",
    label: "Big",
    provider: "anthropic",
    tiers: ["quality"],
    released: "2026-01-01",
    probe: { supports_sampling: true, supports_effort: true, effort_max: true, reasoning: "adaptive" },
  },
  { id: "au.anthropic.claude-fast", label: "Fast", provider: "anthropic", tiers: ["fast"], probe: { supports_sampling: true } },
  { id: "us.meta.llama-x", label: "Llama (US)", provider: "meta", tiers: ["fast"] },
]);

let box: RunningBox;
const dataDir = mkdtempSync(join(tmpdir(), "box-settings-"));
const env = { BOX_API_KEYS: `${A},${B}`, BOX_MODELS: MODELS };

async function post(key: string, body: string | object, headers: Record<string, string> = {}) {
  const res = await fetch(box.url + "/api/settings", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}
const get = async (key: string) =>
  (await (await fetch(box.url + "/api/settings", { headers: { "x-api-key": key } })).json()) as Record<string, any>;

beforeAll(async () => (box = await spawnBox(env, { dataDir })));
afterAll(async () => {
  await box.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /api/settings", () => {
  it("answers the whole read envelope", async () => {
    const e = await get(A);
    expect(Object.keys(e).sort()).toEqual(["effort_levels", "models", "persisted", "reasoning_levels", "settings", "tts_providers"]);
    expect(e.effort_levels).toEqual(["low", "medium", "high", "xhigh", "max"]);
    expect(e.reasoning_levels).toEqual(["off", "low", "medium", "high"]);
    expect(e.persisted).toBe(true);
    expect(e.models.map((m: any) => m.residency)).toEqual(
      [...e.models.map((m: any) => m.residency)].sort(
        (a: string, b: string) => ["au", "apac", "global"].indexOf(a) - ["au", "apac", "global"].indexOf(b),
      ),
    );
    const big = e.models.find((m: any) => m.id === "au.anthropic.claude-big");
    expect(big).toMatchObject({ provider: "anthropic", residency: "au", selectable: true, supports_sampling: true, effort_max: true });
    expect(e.models.find((m: any) => m.id === "us.anthropic.claude-big")).toBeUndefined(); // most resident copy wins
    expect(e.models.find((m: any) => m.id === "us.meta.llama-x")).toMatchObject({
      residency: "global",
      selectable: false,
      supports_sampling: false,
      supports_effort: false,
    });
    for (const f of [
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
      "voice_id_chatterbox",
      "avatar",
      "emotion_responsive",
      "tool_phrases",
      "tools",
    ]) {
      expect(e.settings, f).toHaveProperty(f);
    }
  });
});

describe("POST /api/settings", () => {
  it("writes a subset, answers {ok, saved, settings} with the whole record, one record per credential", async () => {
    const r = await post(A, { system_prompt: "You are Ada.", max_tokens: 300, temperature: 0.4, model: "au.anthropic.claude-big" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      ok: true,
      saved: true,
      settings: { system_prompt: "You are Ada.", max_tokens: 300, temperature: 0.4, model: "au.anthropic.claude-big" },
    });
    expect(r.json.settings).toHaveProperty("live_model");
    expect((await get(A)).settings.system_prompt).toBe("You are Ada.");
    expect((await get(B)).settings.system_prompt).not.toBe("You are Ada.");
  });

  it("refuses an unknown model and a non-selectable one with setting_refused naming the reason", async () => {
    const unknown = await post(A, { model: "au.acme.nothing" });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({
      ok: false,
      error: { code: "setting_refused", message: expect.stringMatching(/exist|unknown|not offered/i) },
    });
    const offshore = await post(A, { live_model: "us.meta.llama-x" });
    expect(offshore.status).toBe(400);
    expect(offshore.json.error.code).toBe("setting_refused");
    expect(offshore.json.error.message).toMatch(/live_model/);
    expect(offshore.json.error.message).not.toBe(unknown.json.error.message);
  });

  it("saves nothing from a refused request", async () => {
    const before = (await get(A)).settings;
    const r = await post(A, {
      system_prompt: "should not stick",
      tools: [{ name: "end_call", description: "x", mode: "await_result", parameters: { type: "object" } }],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("setting_refused");
    expect((await get(A)).settings).toEqual(before);
  });

  it("413 body_too_large over 256 KB; 400 invalid_body for non-objects, bad JSON and deep nesting", async () => {
    const big = await post(A, { system_prompt: "x".repeat(257 * 1024) });
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ ok: false, error: { code: "body_too_large", message: expect.any(String) } });
    for (const body of ["[1,2]", "{oops", '"text"', JSON.stringify({ tool_phrases: JSON.parse("[".repeat(60) + "]".repeat(60)) })]) {
      const r = await post(A, body);
      expect(r.status, body.slice(0, 20)).toBe(400);
      expect(r.json).toEqual({ ok: false, error: { code: "invalid_body", message: expect.any(String) } });
    }
  });

  it("writes tools whole and an empty list clears them", async () => {
    const tool = {
      name: "book_table",
      description: "Book a table",
      mode: "await_result",
      parameters: { type: "object", properties: { people: { type: "integer" } }, required: ["people"] },
    };
    const r = await post(A, { tools: [tool] });
    expect(r.status).toBe(200);
    expect(r.json.settings.tools).toEqual([{ ...tool, timeout_seconds: 8, enabled: true }]);
    expect((await post(A, { tools: [] })).json.settings.tools).toEqual([]);
  });

  it("keeps what was saved across a restart of the box", async () => {
    await post(B, { system_prompt: "Persist me", emotion_responsive: false });
    await box.stop();
    box = await spawnBox(env, { dataDir });
    const s = (await get(B)).settings;
    expect(s).toMatchObject({ system_prompt: "Persist me", emotion_responsive: false });
  });
});
