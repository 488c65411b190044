// Implements: the keys of the live page's avatar grid: arrows, Home and End only move the focus
// between avatars (a radio group would switch, and reconnect a call, on every press); Enter or
// Space switches to the focused one.
export function avatarGridKey(grid: HTMLElement, e: KeyboardEvent): void {
  const input = e.target as HTMLElement;
  if (!(input instanceof HTMLInputElement) || input.name !== "avatar") return;
  const radios = [...grid.querySelectorAll<HTMLInputElement>("input[name=avatar]")];
  const at = radios.indexOf(input);
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (!input.checked) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  const to =
    e.key === "Home" ? 0 : e.key === "End" ? radios.length - 1 : step === undefined ? -1 : (at + step + radios.length) % radios.length;
  if (to < 0) return;
  e.preventDefault();
  // Only the focused one can be reached with Tab: it is the one Enter would switch to.
  for (const r of radios) r.tabIndex = r === radios[to] ? 0 : -1;
  radios[to].focus();
}
