// Readiness object: `ready` = llm && tts, `starting` while a check is in flight, and a `reason`
// that is one well-punctuated sentence naming what is down (empty when ready).
import { describe, expect, it } from "vitest";
import { readiness, type ReadinessSources, type SubsystemState } from "./service.ts";
import { UpstreamHealth } from "./upstream-health.ts";
import { sentence } from "./sentence.ts";

function sources(llm: () => SubsystemState, tts: () => SubsystemState = () => ({ state: "ready", detail: "" })): ReadinessSources {
  return {
    llm: async () => llm(),
    tts: async () => ({ ...tts(), provider: "espeak", origin: "box", notice: "" }),
    transcribe: () => true,
  };
}

/** No "?." or "..", no stray separator before a stop, one stop at the end, capital first. */
function readsWell(reason: string): void {
  expect(reason).not.toMatch(/[.?!,;:]\s*[.?!,;:]/);
  expect(reason).not.toMatch(/\s{2}|\s[.,;:)]/);
  expect(reason).toMatch(/^[A-Z].*[.?!]$/);
}

describe("readiness", () => {
  it("is ready with an empty reason and empty details", async () => {
    const r = await readiness(
      sources(() => ({ state: "ready", detail: "" })),
      "s",
    );
    expect(r).toMatchObject({
      ready: true,
      llm: true,
      tts: true,
      voice: true,
      llm_state: "ready",
      llm_detail: "",
      tts_detail: "",
      starting: false,
      reason: "",
    });
  });

  it("names what is down in one sentence that reads well, whatever punctuation the details bring", async () => {
    const details = [
      "openai unreachable: Unable to connect. Is the computer able to access the url?",
      "openai answered 401: Incorrect API key provided.",
      "espeak-ng: the engine lists no voices (is espeak-ng-data installed?)",
      "the last 3 calls to openai failed; last error: openai answered 500: boom.  ",
      "",
    ];
    for (const detail of details) {
      for (const state of ["unavailable", "failing", "not_configured", "starting"] as const) {
        const llmDown = await readiness(
          sources(() => ({ state, detail })),
          "s",
        );
        readsWell(llmDown.reason);
        expect(llmDown.reason).toMatch(/^The language model is /);
        expect(llmDown.reason).toContain(state.replace("_", " "));
        expect(llmDown.llm_detail).not.toMatch(/[.;:,\s]$/);
        const bothDown = await readiness(
          sources(
            () => ({ state, detail }),
            () => ({ state: "unavailable", detail }),
          ),
          "s",
        );
        readsWell(bothDown.reason);
        expect(bothDown.reason).toMatch(/^The language model is .*, and the voice engine is unavailable/);
        expect(bothDown).toMatchObject({ ready: false, llm: false, tts: false, voice: false });
      }
    }
    const r = await readiness(
      sources(() => ({ state: "unavailable", detail: details[0] })),
      "s",
    );
    expect(r.reason).toBe(
      "The language model is unavailable (openai unreachable: Unable to connect. Is the computer able to access the url?).",
    );
  });

  it("says starting while a probe is in flight, and ready after", async () => {
    let answer!: () => void;
    const health = new UpstreamHealth("openai", () => new Promise<void>((r) => (answer = r)));
    const live = sources(() => ({ state: health.state, detail: health.detail }));
    const checked = health.check();
    const during = await readiness(live, "s");
    expect(during).toMatchObject({
      ready: false,
      llm: false,
      llm_state: "starting",
      starting: true,
      reason: "The language model is starting (checking openai).",
    });
    answer();
    await checked;
    expect(await readiness(live, "s")).toMatchObject({ ready: true, llm_state: "ready", starting: false, reason: "" });
  });

  it("sentence() ends a clause that ends in a question mark without adding a stop", () => {
    expect(sentence(["is it up?"])).toBe("Is it up?");
    expect(sentence(["a.", "b;", "c"])).toBe("A, b, and c.");
    expect(sentence([])).toBe("");
  });
});
