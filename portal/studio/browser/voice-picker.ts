// A searchable voice picker (one component for the live page and the Voices page): a search box
// over a list of voices grouped by language, the person's own language and English first and the
// constructed and fictional languages last; the chosen voice is written out in full above it.
// It drives a hidden <select> (the value the page reads, and whose "change" it fires), so pages
// keep reading `select.value`. Keyboard: type to filter, arrows move, Enter picks, Escape closes.
import { h } from "./dom.ts";

export interface PickerVoice {
  id: string;
  name?: string;
  language?: string;
  gender?: string;
  recommended?: boolean;
}

/** A choice that is not a voice of the list (e.g. "The face's own voice"): value "" by default. */
export interface PickerExtra {
  value: string;
  label: string;
  hint?: string;
}

/** Language tags of constructed and fictional languages (espeak's `art/` voices and the like). */
const CONSTRUCTED = new Set(["art", "eo", "ia", "ie", "io", "jbo", "lfn", "piqd", "py", "qdb", "qya", "sjn", "tlh", "vo"]);
const CONSTRUCTED_GROUP = "Constructed and fictional languages";
const OTHER_GROUP = "Other voices";

let names: Intl.DisplayNames | null = null;
/** "English" for "en-gb": the group a tag goes in (its primary subtag, named in English). */
export function languageGroup(tag: string | undefined): string {
  const primary = (tag ?? "").toLowerCase().split(/[-_]/)[0];
  if (!primary) return OTHER_GROUP;
  if (CONSTRUCTED.has(primary)) return CONSTRUCTED_GROUP;
  try {
    names ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
    const name = names.of(primary);
    if (name && name.toLowerCase() !== primary) return name;
  } catch {}
  // A tag written as a name by a hosted provider ("english", "English").
  return /^[a-z]{4,}$/.test(primary) ? primary[0].toUpperCase() + primary.slice(1) : primary;
}

/** Group order: the person's language, English, the rest by name, then the constructed ones, then unknown. */
export function groupRank(group: string, own: string): [number, string] {
  if (group === own) return [0, group];
  if (group === "English") return [1, group];
  if (group === CONSTRUCTED_GROUP) return [3, group];
  if (group === OTHER_GROUP) return [4, group];
  return [2, group];
}

export function voiceLabel(v: PickerVoice): string {
  const facts = [v.language, v.gender].filter(Boolean).join(", ");
  return `${v.name || v.id}${facts ? ` (${facts})` : ""}${v.recommended ? " ★" : ""}`;
}

let seq = 0;

export class VoicePicker {
  private voices: PickerVoice[] = [];
  private extras: PickerExtra[] = [];
  private readonly root: HTMLElement;
  private readonly current: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly count: HTMLElement;
  private options: HTMLElement[] = [];
  private active = -1;
  private readonly base = `voice-picker-${++seq}`;
  /** The person's language, named like the groups ("English", "German"). */
  private readonly own = languageGroup(typeof navigator === "undefined" ? "" : navigator.language);

  constructor(
    private readonly select: HTMLSelectElement,
    what = "voices",
  ) {
    this.current = h("p", { class: "vp-current", id: `${this.base}-current`, "aria-live": "polite" });
    this.search = h("input", {
      type: "search",
      id: `${this.base}-search`,
      class: "vp-search",
      role: "combobox",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: `Search ${what} by name or language`,
      "aria-expanded": "false",
      "aria-autocomplete": "list",
      "aria-controls": `${this.base}-list`,
      "aria-describedby": `${this.base}-current`,
    }) as HTMLInputElement;
    this.list = h("ul", { class: "vp-list", id: `${this.base}-list`, role: "listbox", hidden: true, "aria-label": what });
    this.count = h("p", { class: "visually-hidden", role: "status" });
    this.root = h("div", { class: "voice-picker" }, this.current, this.search, this.list, this.count);
    select.hidden = true;
    select.tabIndex = -1;
    select.after(this.root);
    // The page's label names the search box now (the select is only the value).
    const label = select.id ? document.querySelector<HTMLLabelElement>(`label[for="${select.id}"]`) : null;
    if (label) label.htmlFor = this.search.id;

    this.search.addEventListener("input", () => this.open());
    this.search.addEventListener("focus", () => this.open());
    this.search.addEventListener("click", () => this.open());
    this.search.addEventListener("keydown", (e) => this.key(e));
    this.root.addEventListener("focusout", (e) => {
      if (!this.root.contains(e.relatedTarget as Node | null)) this.close();
    });
    // A mousedown on an option would blur the search box first: keep the focus, pick on click.
    this.list.addEventListener("mousedown", (e) => e.preventDefault());
    this.list.addEventListener("click", (e) => {
      const li = (e.target as HTMLElement).closest<HTMLElement>("[role=option]");
      if (li) this.choose(li.dataset.value ?? "");
    });
  }

  /** The voices to offer (and choices before them), with `value` chosen. */
  set(voices: PickerVoice[], value: string, extras: PickerExtra[] = []): void {
    this.voices = voices;
    this.extras = extras;
    this.select.replaceChildren(
      ...extras.map((x) => h("option", { value: x.value, selected: x.value === value }, x.label)),
      ...voices.map((v) => h("option", { value: v.id, selected: v.id === value }, voiceLabel(v))),
    );
    this.disabled = voices.length + extras.length === 0;
    this.showCurrent();
    if (!this.list.hidden) this.render();
  }

  get value(): string {
    return this.select.value;
  }

  set disabled(off: boolean) {
    this.select.disabled = off;
    this.search.disabled = off;
    if (off) this.close();
  }

  /** The chosen entry's full name (the page's sample and log lines). */
  get chosenName(): string {
    return this.select.selectedOptions[0]?.textContent ?? this.select.value;
  }

  private showCurrent(): void {
    const v = this.select.value;
    const extra = this.extras.find((x) => x.value === v);
    const voice = this.voices.find((x) => x.id === v);
    if (!extra && !voice) {
      this.current.replaceChildren(this.voices.length ? "No voice chosen." : "No voices to choose from.");
      return;
    }
    this.current.replaceChildren(
      h("span", { class: "vp-chosen-label" }, "Chosen: "),
      h("strong", { class: "vp-chosen" }, extra ? extra.label : voice!.name || voice!.id),
      ...(extra?.hint ? [" ", h("span", { class: "hint" }, extra.hint)] : []),
      ...(voice
        ? [" ", h("span", { class: "hint" }, [languageGroup(voice.language), voice.language, voice.gender].filter(Boolean).join(" · "))]
        : []),
    );
  }

  private matches(v: PickerVoice, words: string[]): boolean {
    const hay = `${v.name ?? ""} ${v.id} ${v.language ?? ""} ${languageGroup(v.language)} ${v.gender ?? ""}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  }

  private render(): void {
    const words = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const groups = new Map<string, PickerVoice[]>();
    for (const v of this.voices) {
      if (!this.matches(v, words)) continue;
      const g = languageGroup(v.language);
      groups.set(g, [...(groups.get(g) ?? []), v]);
    }
    const order = [...groups.keys()].sort((a, b) => {
      const [ra, na] = groupRank(a, this.own);
      const [rb, nb] = groupRank(b, this.own);
      return ra - rb || na.localeCompare(nb);
    });
    const chosen = this.select.value;
    const option = (value: string, text: string, n: number) =>
      h(
        "li",
        {
          role: "option",
          id: `${this.base}-o${n}`,
          class: "vp-option",
          "data-value": value,
          "aria-selected": value === chosen ? "true" : "false",
        },
        text,
      );
    const rows: HTMLElement[] = [];
    this.options = [];
    const extras = words.length ? this.extras.filter((x) => words.every((w) => x.label.toLowerCase().includes(w))) : this.extras;
    for (const x of extras) {
      const li = option(x.value, x.label, this.options.length);
      this.options.push(li);
      rows.push(li);
    }
    order.forEach((g, gi) => {
      const items = groups.get(g)!.map((v) => {
        const li = option(v.id, voiceLabel(v), this.options.length);
        this.options.push(li);
        return li;
      });
      rows.push(
        h(
          "li",
          { role: "presentation" },
          h("p", { class: "vp-group", id: `${this.base}-g${gi}` }, `${g} (${items.length})`),
          h("ul", { role: "group", "aria-labelledby": `${this.base}-g${gi}` }, ...items),
        ),
      );
    });
    if (!this.options.length) rows.push(h("li", { role: "presentation", class: "vp-none" }, "No voice matches."));
    this.list.replaceChildren(...rows);
    this.count.textContent = `${this.options.length} ${this.options.length === 1 ? "match" : "matches"}`;
    const at = this.options.findIndex((o) => o.dataset.value === chosen);
    this.move(words.length ? 0 : Math.max(at, 0), false);
  }

  private open(): void {
    if (this.search.disabled) return;
    if (this.list.hidden) {
      this.list.hidden = false;
      this.search.setAttribute("aria-expanded", "true");
    }
    this.render();
  }

  private close(): void {
    this.list.hidden = true;
    this.search.setAttribute("aria-expanded", "false");
    this.search.removeAttribute("aria-activedescendant");
    this.active = -1;
  }

  private move(to: number, scroll = true): void {
    this.options[this.active]?.classList.remove("active");
    this.active = this.options.length ? Math.min(Math.max(to, 0), this.options.length - 1) : -1;
    const li = this.options[this.active];
    if (!li) return this.search.removeAttribute("aria-activedescendant");
    li.classList.add("active");
    this.search.setAttribute("aria-activedescendant", li.id);
    li.scrollIntoView({ block: scroll ? "nearest" : "center" });
  }

  private key(e: KeyboardEvent): void {
    const shown = !this.list.hidden;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!shown) return this.open();
      this.move(this.active + (e.key === "ArrowDown" ? 1 : -1));
    } else if (e.key === "PageDown" || e.key === "PageUp") {
      if (!shown) return;
      e.preventDefault();
      this.move(this.active + (e.key === "PageDown" ? 8 : -8));
    } else if (e.key === "Enter") {
      if (!shown) return;
      e.preventDefault();
      const li = this.options[this.active];
      if (li) this.choose(li.dataset.value ?? "");
    } else if (e.key === "Escape" && shown) {
      e.preventDefault();
      this.close();
    }
  }

  private choose(value: string): void {
    const changed = value !== this.select.value;
    this.select.value = value;
    this.search.value = "";
    this.close();
    this.showCurrent();
    if (changed) this.select.dispatchEvent(new Event("change", { bubbles: true }));
  }
}
