// Implements: the live page's avatar grid cards, in three parts: Stock, Yours (the box's uploaded
// faces, and the library's rows that are not loaded here yet) and the Public library; a face that
// cannot be picked here is shown with why and no radio. Stills are fetched with the page's
// credential, once per variant.
import type { AvatarClient, AvatarGroup, LoadedAvatars } from "../../../../shared/client/index.ts";
import type { LibraryRecord, PublicLibraryRecord } from "../../../../shared/wire/library.ts";
import { h } from "../dom.ts";

/** The avatars' stills as object URLs, each fetched once. */
export class Stills {
  private readonly urls = new Map<string, string>();

  constructor(private readonly client: AvatarClient) {}

  async get(variant: string): Promise<string | null> {
    if (!variant) return null;
    if (this.urls.has(variant)) return this.urls.get(variant)!;
    try {
      const url = URL.createObjectURL(await this.client.avatarPreview(variant));
      this.urls.set(variant, url);
      return url;
    } catch {
      return null; // not prepared yet: the card keeps its blank square
    }
  }
}

/** What the grid is made from: the box's avatars, and the library rows (null: not read). */
export interface AvatarSources {
  avatars: LoadedAvatars;
  library: LibraryRecord[] | null;
  publicRows: PublicLibraryRecord[] | null;
}

/** Appends the grid's sections; `chosen` is the group whose radio is checked. */
export function appendAvatarSections(grid: HTMLElement, src: AvatarSources, chosen: string | undefined, stills: Stills): void {
  const a = src.avatars;
  const stock = a.groups.filter((g) => g.stock);
  const own = a.groups.filter((g) => !g.stock);
  const ownIds = new Set(own.map((g) => g.id));
  const publicIds = new Set((src.publicRows ?? []).filter((r) => r.mine).map((r) => r.avatar_id));
  // Library rows of the person's that this box does not stream (being prepared, failed, or prepared elsewhere).
  const notHere = (src.library ?? []).filter((r) => !ownIds.has(r.avatar_id));
  const others = (src.publicRows ?? []).filter((r) => !r.mine);
  const card = (g: AvatarGroup, badge: string) => avatarCard(g, chosen, a, badge, stills);

  if (stock.length)
    section(
      grid,
      "Stock",
      stock.map((g) => card(g, "Stock")),
    );
  section(
    grid,
    "Yours",
    [
      ...own.map((g) => card(g, publicIds.has(g.id) ? "Yours · public" : "Yours")),
      ...notHere.map((r) =>
        blockedCard(r.name || r.avatar_id, r.state === "preparing" ? "Preparing" : r.state === "failed" ? "Failed" : "Not on this box"),
      ),
    ],
    h("p", { class: "hint picker-empty" }, "None yet: ", h("a", { href: "/studio/library" }, "upload a photo on the Avatars page"), "."),
  );
  if (others.length)
    section(
      grid,
      "Public library",
      others.map((r) => blockedCard(r.name || r.avatar_id, "Not available here")),
    );
}

/** A heading across the grid, then its cards (or `empty`). */
function section(grid: HTMLElement, title: string, cards: HTMLElement[], empty?: HTMLElement): void {
  if (!cards.length && !empty) return;
  grid.append(h("p", { class: "picker-head" }, title), ...(cards.length ? cards : [empty!]));
}

function avatarCard(g: AvatarGroup, chosen: string | undefined, a: LoadedAvatars, badge: string, stills: Stills): HTMLElement {
  const img = h("img", { alt: "", width: 96, height: 96, hidden: true });
  const still = h("span", { class: "no-still", "aria-hidden": "true" });
  const preparing = g.variants.every((v) => a.preparing.includes(v));
  const card = h(
    "label",
    { class: "avatar-card" },
    h("input", { type: "radio", name: "avatar", value: g.id, checked: g.id === chosen }),
    img,
    still,
    h("span", { class: "name" }, g.label || g.id),
    h("span", { class: `badge${g.stock ? " muted" : " own"}` }, preparing ? "Preparing" : badge),
  );
  void stills.get(g.preview).then((url) => {
    if (!url) return;
    img.src = url;
    img.hidden = false;
    still.remove();
  });
  return card;
}

/** A face that cannot be picked on this box: shown, with why, but no radio. */
function blockedCard(name: string, why: string): HTMLElement {
  return h(
    "div",
    { class: "avatar-card unavailable" },
    h("span", { class: "no-still", "aria-hidden": "true" }),
    h("span", { class: "name" }, name),
    h("span", { class: "badge muted" }, why),
  );
}
