// Implements: the GPU page's readiness list: whether the box answers, and its language model and
// voice (`GET /api/chat/status` through the client library), or why it does not answer, read against
// the machine's state. The list is a live region polled every few seconds, so it changes only
// when what it says changes.
import type { Readiness } from "../../../shared/client/index.ts";
import type { GpuVerb as Verb } from "../../../shared/wire/gpu.ts";
import { h } from "./dom.ts";
import { explain } from "./words.ts";

/** Replaces the list only when what it says changed. */
function setReadiness(readiness: HTMLElement, ...items: HTMLElement[]): void {
  const said = (els: Iterable<Element>) => [...els].map((e) => `${e.className}:${e.textContent}`).join("|");
  if (said(items) !== said(readiness.children)) readiness.replaceChildren(...items);
}

/** The box's answer `r`, or the failure `err` when it gave none; `state` and `acting` are the machine's now. */
export function renderReadiness(
  readiness: HTMLElement,
  r: Readiness | null,
  err: unknown,
  state: string | undefined,
  acting: Verb | null,
): void {
  const item = (ok: boolean | "wait", text: string) =>
    h(
      "li",
      { class: ok === "wait" ? "wait" : ok ? "up" : "down" },
      h("span", { class: "mark", "aria-hidden": "true" }, ok === "wait" ? "…" : ok ? "✓" : "✗"),
      h("span", {}, text),
    );
  if (r) {
    setReadiness(
      readiness,
      item(true, "The box answers."),
      item(
        r.llm_state === "starting" ? "wait" : r.llm,
        r.llm ? "Language model: ready." : `Language model: ${r.llm_state.replace(/_/g, " ")}${r.llm_detail ? ` (${r.llm_detail})` : ""}.`,
      ),
      item(
        r.tts_state === "starting" ? "wait" : r.tts,
        r.tts
          ? `Voice: ready (${r.voice_provider}).`
          : `Voice: ${r.tts_state.replace(/_/g, " ")}${r.tts_detail ? ` (${r.tts_detail})` : ""}.`,
      ),
    );
    return;
  }
  const p = explain(err);
  const why =
    p.kind !== "box_stopped"
      ? p.text
      : state === "running" || state === "pending" || acting === "start" || acting === "launch"
        ? "The box does not answer yet: it may still be starting. This page asks again in a moment."
        : "The box does not answer: it is not running.";
  setReadiness(readiness, item(p.kind === "box_stopped" && state === "running" ? "wait" : false, why));
}
