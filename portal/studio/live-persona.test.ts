// The live page's persona panel: the server-rendered skeleton (every field labelled, the four
// system tools each with a sentence, no secret), and the page's own checks against the box's
// validator — the page says what the box would say for what it checks before sending, sends only
// what changed, and places each of the box's refusals by the field it concerns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_TOOLS, type SettingsRecord } from "../../shared/wire/settings.ts";
import { applySettingsPatch } from "../../box/settings/validate.ts";
import { checkTools } from "../../box/settings/validate-tools.ts";
import { base, ctx, MODELS, tool } from "../../box/settings/testing/validate-fixtures.ts";
import { createTestPortal, type TestPortal } from "../testing/test-portal.ts";
import {
  checkDrafts,
  modelOptionText,
  refusalTarget,
  settingsPatch,
  type PersonaValues,
  type ToolDraft,
} from "./browser/live/persona-rules.ts";
import type { StudioScript } from "./routes.ts";
import { SECRET_SHAPE } from "./testing/page-checks.ts";

const SCRIPT: StudioScript = { code: "console.log('studio')", gzip: new Uint8Array([0x1f, 0x8b, 1, 2, 3]), etag: '"abc123"' };

let portal: TestPortal;
let ada: string;

beforeAll(async () => {
  portal = await createTestPortal({ studio: { script: async () => SCRIPT, outbox: "data/outbox" } });
  ada = await portal.signIn("ada@example.com");
});
afterAll(() => portal.close());

/** The persona card's HTML: from its <section> to the next card. */
async function personaHtml(): Promise<string> {
  const res = await portal.app.request("/studio", { headers: { cookie: ada } });
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).not.toMatch(SECRET_SHAPE);
  const start = html.indexOf('<section class="card persona"');
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf("</section>", start) + "</section>".length);
}

describe("the persona panel on the live page", () => {
  it("renders a labelled form: prompt, both models, reasoning, emotion, the four system tools, the tools editor", async () => {
    const html = await personaHtml();
    for (const id of [
      "persona-prompt",
      "persona-model",
      "persona-live-model",
      "persona-reasoning",
      "persona-emotion",
      ...SYSTEM_TOOLS.map((n) => `system-tool-${n}`),
    ]) {
      expect(html, id).toMatch(new RegExp(`<(input|select|textarea)\\b[^>]*\\bid="${id}"`));
      expect(html, `label for ${id}`).toContain(`for="${id}"`);
    }
    // Each system tool is named and said in a sentence.
    for (const name of SYSTEM_TOOLS)
      expect(html).toMatch(
        new RegExp(`for="system-tool-${name}">[^<]*<code>${name}</code><span class="check-sentence">[^<]{20,}\\.</span>`),
      );
    expect(html).toContain('<ol id="persona-tools" class="tool-list"></ol>');
    expect(html).toMatch(/<button type="button" id="add-tool"[^>]*>Add a tool<\/button>/);
    expect(html).toMatch(/<button type="submit" id="save-persona" class="primary">Save the persona<\/button>/);
    expect(html).toContain('<p id="persona-result" class="result" role="status"></p>');
    // The skeleton carries no settings: the script reads them with the page's own credential.
    expect(html).not.toContain("<option");
  });
});

describe("the page's checks agree with the box", () => {
  const draft = (over: Partial<ToolDraft> = {}): ToolDraft => ({
    name: "lookup_order",
    description: "Looks up an order by its number.",
    parameters: JSON.stringify({ type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] }),
    mode: "await_result",
    timeout: "",
    enabled: true,
    ...over,
  });
  /** What the box says about the tools the page would send if it did not check them first. */
  const boxSays = (drafts: ToolDraft[]): string => {
    const raw = drafts.map((d) => ({
      name: d.name.trim(),
      description: d.description,
      mode: d.mode,
      enabled: d.enabled,
      ...(d.parameters.trim() ? { parameters: JSON.parse(d.parameters) } : {}),
      ...(d.timeout.trim() ? { timeout_seconds: Number(d.timeout) } : {}),
    }));
    try {
      checkTools(raw);
    } catch (err) {
      return (err as Error).message;
    }
    return "(accepted)";
  };

  const bad: [string, ToolDraft[]][] = [
    ["a name with a space", [draft({ name: "lookup order" })]],
    ["a name starting with a digit", [draft(), draft({ name: "2fa_code" })]],
    ["a one-letter name", [draft({ name: "x" })]],
    ["a name of 65 characters", [draft({ name: `a${"b".repeat(64)}` })]],
    ["a reserved name", [draft({ name: "end_call" })]],
    ["no description", [draft({ description: "  " })]],
    ["a description of 401 characters", [draft({ description: "d".repeat(401) })]],
    ["a timeout of 11 s", [draft({ timeout: "11" })]],
    ["a timeout of 2.5 s", [draft({ timeout: "2.5" })]],
    ["parameters of type array", [draft({ parameters: '{"type":"array","items":{"type":"string"}}' })]],
    ["parameters over 4096 bytes", [draft({ parameters: JSON.stringify({ type: "object", description: "é".repeat(2100) }) })]],
    ["the same name twice", [draft(), draft({ description: "Again." })]],
    ["eleven tools", Array.from({ length: 11 }, (_, i) => draft({ name: `tool_${i}` }))],
  ];
  for (const [what, drafts] of bad) {
    it(`refuses ${what} in the box's words`, () => {
      const page = checkDrafts(drafts);
      expect(page.tools).toBeNull();
      const said = boxSays(drafts);
      expect(said).not.toBe("(accepted)");
      expect(page.problems[0].message).toBe(said);
    });
  }

  it("names parameters that are not JSON (which the box never sees) by the tool", () => {
    const page = checkDrafts([draft(), draft({ name: "track_parcel", parameters: "{type: object}" })]);
    expect(page.tools).toBeNull();
    expect(page.problems).toEqual([
      {
        index: 1,
        field: "parameters",
        message: expect.stringMatching(/^tools\[1\] \(track_parcel\): parameters are not valid JSON \(.+\)\.$/),
      },
    ]);
  });

  it("passes what the box accepts, with the box's defaults left to the box", () => {
    const drafts = [
      draft(),
      draft({ name: "notify_team", description: "Tells the team.", parameters: "", mode: "fire_and_forget", timeout: "3", enabled: false }),
    ];
    const page = checkDrafts(drafts);
    expect(page.problems).toEqual([]);
    expect(page.tools).toEqual([
      {
        name: "lookup_order",
        description: "Looks up an order by its number.",
        mode: "await_result",
        enabled: true,
        parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
      },
      { name: "notify_team", description: "Tells the team.", mode: "fire_and_forget", enabled: false, timeout_seconds: 3 },
    ]);
    expect(checkTools(page.tools)).toHaveLength(2);
  });
});

describe("what Save sends", () => {
  const values = (s: SettingsRecord, over: Partial<PersonaValues> = {}): PersonaValues => ({
    system_prompt: s.system_prompt,
    model: s.model,
    live_model: s.live_model,
    reasoning: s.reasoning ?? "",
    emotion_responsive: s.emotion_responsive,
    system_tools: [...(s.system_tools ?? SYSTEM_TOOLS)],
    tools: s.tools.map((t) => ({ ...t })),
    ...over,
  });

  it("sends nothing when nothing changed, including a stored record read back (tools normalised by the box)", () => {
    const stored = applySettingsPatch(base(), { tools: [tool()], system_tools: ["end_call"] }, ctx);
    // The editor shows the parameters with the keys in another order: still the same tool.
    const reordered = stored.tools.map((t) => ({
      ...t,
      parameters: { required: t.parameters.required, properties: t.parameters.properties, type: "object" as const },
    }));
    expect(settingsPatch(stored, values(stored, { tools: reordered }))).toEqual({});
    // Defaults written out (8 s, enabled) or left out are the same tool.
    expect(
      settingsPatch(
        stored,
        values(stored, {
          tools: [{ name: "lookup_order", description: tool().description, mode: "await_result", parameters: stored.tools[0].parameters }],
        }),
      ),
    ).toEqual({});
  });

  it("sends only the changed fields, the tools whole, and the system tools as the list that is on", () => {
    const stored = applySettingsPatch(base(), { tools: [tool(), tool({ name: "track_parcel" })] }, ctx);
    const v = values(stored, {
      system_prompt: "You are Ada.",
      reasoning: "high",
      emotion_responsive: false,
      system_tools: ["change_language", "end_call"],
      tools: [stored.tools[0], { ...stored.tools[1], timeout_seconds: 3 }],
    });
    const patch = settingsPatch(stored, v);
    expect(patch).toEqual({
      system_prompt: "You are Ada.",
      reasoning: "high",
      emotion_responsive: false,
      system_tools: ["end_call", "change_language"],
      tools: v.tools,
    });
    // The box takes it as sent.
    const next = applySettingsPatch(stored, patch, ctx);
    expect(next.tools[1].timeout_seconds).toBe(3);
    expect(next.system_tools).toEqual(["end_call", "change_language"]);
    // Automatic reasoning goes back as null; a model change is sent alone.
    expect(settingsPatch(next, values(next, { reasoning: "" }))).toEqual({ reasoning: null });
    expect(settingsPatch(next, values(next, { model: MODELS.opus }))).toEqual({ model: MODELS.opus });
  });
});

describe("a refusal lands by its field", () => {
  const refusal = (body: Record<string, unknown>): string => {
    try {
      applySettingsPatch(base(), body, ctx);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("accepted");
  };

  it("reads the box's own messages", () => {
    expect(refusalTarget(refusal({ model: "au.nobody.nothing" }))).toEqual({ kind: "field", field: "model" });
    expect(refusalTarget(refusal({ live_model: MODELS.gpt }))).toEqual({ kind: "field", field: "live_model" });
    expect(refusalTarget(refusal({ system_tools: ["end_call", "end_call"] }))).toEqual({ kind: "field", field: "system_tools" });
    expect(refusalTarget(refusal({ emotion_responsive: "yes" }))).toEqual({ kind: "field", field: "emotion_responsive" });
    expect(
      refusalTarget(refusal({ tools: [tool(), tool({ name: "bad_tool", parameters: { type: "object", additionalProperties: false } })] })),
    ).toEqual({ kind: "tool", index: 1, field: "parameters" });
    expect(refusalTarget(refusal({ tools: [tool({ name: "Lookup" })] }))).toEqual({ kind: "tool", index: 0, field: "name" });
    expect(refusalTarget(refusal({ tools: [tool({ description: "" })] }))).toEqual({ kind: "tool", index: 0, field: "description" });
    expect(refusalTarget(refusal({ tools: [tool({ extra: 1 })] }))).toEqual({ kind: "tool", index: 0, field: "row" });
    expect(refusalTarget(refusal({ tools: "none" }))).toEqual({ kind: "tools" });
    expect(refusalTarget(refusal({ tool_phrases: { skip_turn: { en: "Hold on." } } }))).toBeNull();
  });

  it("shows a model that cannot be chosen with why", () => {
    const gpt = ctx.catalogue.find((m) => m.id === MODELS.gpt)!;
    expect(gpt.selectable).toBe(false);
    expect(modelOptionText(gpt)).toBe("GPT (worldwide), not selectable: data would leave Australia");
    expect(modelOptionText(ctx.catalogue.find((m) => m.id === MODELS.sonnet)!)).toBe("Sonnet (Australia)");
  });
});
