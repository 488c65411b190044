// Implements: what the live page's pickers remember in this browser (avatar, tone, engine, and the
// voice chosen for each avatar), and the avatar asked for in the address (`/studio?avatar=<id>`,
// the Avatars page's "Use in the live studio"), dropped from the address once picked.
const PICK_KEY = "studio.pick";

export interface Saved {
  avatar?: string;
  tone?: string;
  provider?: string;
  /** The voice chosen for each avatar (group id); absent: the face's own voice. */
  voices?: Record<string, { provider: string; voice: string }>;
}

export function saved(): Saved {
  try {
    return JSON.parse(localStorage.getItem(PICK_KEY) ?? "{}") as Saved;
  } catch {
    return {};
  }
}

export function store(pick: Saved): void {
  try {
    localStorage.setItem(PICK_KEY, JSON.stringify(pick));
  } catch {}
}

/** The avatar asked for in the address (`?avatar=<id or variant id>`), as its group id. */
export function askedAvatar(): string | null {
  const raw = new URLSearchParams(location.search).get("avatar")?.trim();
  return raw ? raw.split("__")[0] : null;
}

/** Drops `?avatar=` from the address once it was picked (a reload keeps the remembered pick instead). */
export function forgetAsked(): void {
  const url = new URL(location.href);
  url.searchParams.delete("avatar");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}
