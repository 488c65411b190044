// Implements: the persona panel's two model pickers from the box's catalogue (Model catalogue row):
// each model's option in words, a model no longer in the catalogue kept as it is, the facts under
// each picker and the reasoning hint, and what to run when the catalogue is empty.
import type { CatalogueRow } from "../../../../shared/client/index.ts";
import { byId, h } from "../dom.ts";
import { setModelWords } from "./model-words.ts";
import { modelFacts, modelOptionText, reasoningWords } from "./persona-rules.ts";

export function fillModels(select: HTMLSelectElement, models: CatalogueRow[], current: string): void {
  const opts: HTMLOptionElement[] = [];
  if (current === "") opts.push(h("option", { value: "" }, models.length ? "None chosen" : "None: this box has no models"));
  else if (!models.some((m) => m.id === current))
    opts.push(h("option", { value: current }, `${current} (not in this box's catalogue now)`));
  for (const m of models) opts.push(h("option", { value: m.id, disabled: !m.selectable && m.id !== current }, modelOptionText(m)));
  select.replaceChildren(...opts);
  select.value = current;
}

/** The facts under both pickers for the models chosen now (`model`, `liveModel`: their ids). */
export function showModelFacts(models: CatalogueRow[], model: string, liveModel: string): void {
  const row = (id: string) => models.find((m) => m.id === id);
  byId("persona-model-facts").textContent = `For a one-shot turn, with no call on. ${modelFacts(row(model), model)}`;
  byId("persona-live-model-facts").textContent =
    `For every turn during a call (Chat and the microphone). ${modelFacts(row(liveModel), liveModel)}`;
  const live = row(liveModel);
  byId("persona-reasoning-hint").textContent = live
    ? `Applies to the live model, which ${reasoningWords(live.reasoning)}; automatic uses its default (${live.default_reasoning}). The quality model takes it only if it takes a level the same way.`
    : "Applies to the live model; automatic uses the model's own default.";
  // An empty catalogue: what to run so the box has models, said once under both selects.
  const none = byId("persona-models-none");
  none.hidden = models.length > 0;
  if (models.length) none.replaceChildren();
  else if (!none.hasChildNodes())
    none.append("This box has no models in its catalogue, so there is nothing to pick yet. ", ...setModelWords());
  const hidden = models.filter((m) => !m.selectable);
  byId("persona-models-note").textContent = hidden.length
    ? `${hidden.length} model${hidden.length === 1 ? " is" : "s are"} listed but cannot be chosen: this deployment sends data only to models that run in Australia unless it is set to allow others.`
    : "";
}
