// Keeps the live page's stage (the video with the typed box beneath it) inside what the person can
// see: the visible height (the visual viewport, which shrinks when a phone's keyboard opens) and
// the top bar's height go to CSS as `--live-vh` and `--top-h` (styles/live.ts sizes the stage from
// them), and a short viewport marks the page `squeezed` so the captions and the microphone row
// step aside for the face. Also: clicking the video area while no call is on starts one.
import { byId } from "../dom.ts";

/** Below this visible height (px) the keyboard is taken to be up, or the window is very short. */
const SQUEEZED_BELOW = 560;

export function pinStage(): void {
  const root = document.documentElement;
  const topBar = document.querySelector<HTMLElement>(".top-bar");
  const text = byId<HTMLTextAreaElement>("turn-text");
  const apply = () => {
    const visible = window.visualViewport?.height ?? window.innerHeight;
    root.style.setProperty("--live-vh", `${Math.round(visible)}px`);
    root.style.setProperty("--top-h", `${topBar?.offsetHeight ?? 0}px`);
    document.body.classList.toggle("squeezed", visible < SQUEEZED_BELOW);
    // With the keyboard up the page may have scrolled to the box: bring the stage's top (the face) back.
    if (document.activeElement === text && visible < SQUEEZED_BELOW) byId("stage").scrollIntoView({ block: "start" });
  };
  apply();
  window.visualViewport?.addEventListener("resize", apply);
  window.addEventListener("resize", apply);
  if (topBar && typeof ResizeObserver === "function") new ResizeObserver(apply).observe(topBar);
}

/** The video area starts the call while none is on (`isOff`), as the Start call button does. */
export function videoStartsCall(isOff: () => boolean, start: () => void): (off: boolean) => void {
  const frame = byId("video-frame");
  frame.addEventListener("click", (e) => {
    // The sound button and any control over the video keep their own meaning.
    if ((e.target as HTMLElement).closest("button") || !isOff()) return;
    start();
  });
  return (off: boolean) => (frame.dataset.startable = String(off));
}
