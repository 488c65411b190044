// Small DOM helpers for the studio's script (no framework): find by id, build elements with text
// (never HTML strings, so nothing the box or a person typed is parsed as markup), and notices.

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

type Attrs = Record<string, string | number | boolean | null | undefined>;

/** `h("p", {class: "x"}, "text", child)`: attributes set as attributes, children as text or nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export type NoticeLevel = "info" | "success" | "warning" | "error";
export interface NoticeAction {
  label: string;
  run: () => void | Promise<void>;
}

/** Keyed notices in one region: setting a key again replaces its notice; clear(key) removes it. */
export class Notices {
  private readonly shown = new Map<string, HTMLElement>();
  constructor(private readonly region: HTMLElement) {}

  set(key: string, level: NoticeLevel, text: string | Node[], actions: NoticeAction[] = []): HTMLElement {
    const body = h("p", {});
    body.append(...(typeof text === "string" ? [text] : text));
    const box = h("div", { class: `notice ${level}`, role: level === "error" ? "alert" : null, "data-notice": key }, body);
    if (actions.length) {
      const row = h("div", { class: "notice-actions" });
      for (const a of actions) {
        const b = h("button", { type: "button", class: level === "error" || level === "warning" ? "primary" : "" }, a.label);
        b.addEventListener("click", async () => {
          b.disabled = true;
          try {
            await a.run();
          } finally {
            b.disabled = false;
          }
        });
        row.append(b);
      }
      box.append(row);
    }
    const old = this.shown.get(key);
    if (old) old.replaceWith(box);
    else this.region.append(box);
    this.shown.set(key, box);
    return box;
  }

  clear(key: string): void {
    this.shown.get(key)?.remove();
    this.shown.delete(key);
  }

  has(key: string): boolean {
    return this.shown.has(key);
  }
}

/** A status line under a form: text and a tone (`ok`, `error`, or plain). */
export function say(el: HTMLElement, text: string, tone: "ok" | "error" | "" = ""): void {
  el.textContent = text;
  el.className = `result${tone ? ` ${tone}` : ""}`;
}

export function clock(at = new Date()): string {
  return at.toTimeString().slice(0, 8);
}
