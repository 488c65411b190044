// Implements: the GPU page for administrators (portal/studio/gpu-page.tsx renders its skeleton):
// the GPU record in words, polled while the page is visible (sooner while something is changing),
// the box's readiness through the client library, the verbs that make sense for the state (each
// button off while a verb runs; terminate after a dialog), diagnostics on demand. A 409
// `gpu_admin_only` (the gate changed under the page) turns the page into the not-for-you sentence.
// Its parts: ./gpu-words.ts, ./gpu-facts.ts, ./gpu-launch-choice.ts, ./gpu-readiness.ts,
// ./gpu-terminate.ts, ./gpu-diagnostics.ts.
import { AvatarApiError, AvatarClient, portalCredentialProvider } from "../../../shared/client/index.ts";
import type { GpuStatusBody as GpuStatus, GpuVerb as Verb } from "../../../shared/wire/gpu.ts";
import { byId, Notices, say } from "./dom.ts";
import { wireDiagnostics } from "./gpu-diagnostics.ts";
import { gpuFacts } from "./gpu-facts.ts";
import { LaunchChoice } from "./gpu-launch-choice.ts";
import { renderReadiness } from "./gpu-readiness.ts";
import { terminateWarning } from "./gpu-terminate.ts";
import { ACTING_WORDS, DONE_WORDS, gpuWords, NO_DRIVER, STATE_WORDS } from "./gpu-words.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { explain } from "./words.ts";

const SETTLED_MS = 5_000;
const MOVING_MS = 2_000;
const MOVING = new Set(["pending", "stopping", "shutting-down"]);

export function startGpu(): void {
  if (document.body.dataset.admin !== "1") return;
  const notices = new Notices(byId("notices"));
  const stateLine = byId("gpu-state");
  const stateText = stateLine.querySelector<HTMLElement>(".gpu-state-text")!;
  const checked = byId("gpu-checked");
  const facts = byId("gpu-facts");
  const choice = new LaunchChoice();
  const result = byId("gpu-result");
  const readiness = byId("box-readiness");
  const dialog = byId<HTMLDialogElement>("terminate-dialog");
  const buttons: Record<Verb, HTMLButtonElement> = {
    launch: byId("gpu-launch"),
    start: byId("gpu-start"),
    stop: byId("gpu-stop"),
    terminate: byId("gpu-terminate"),
  };
  const client = new AvatarClient({ baseUrl: "", token: portalCredentialProvider() });

  let last: GpuStatus | null = null;
  let acting: Verb | null = null;
  let boxAnswers = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let refreshing: Promise<void> | null = null;
  let gone = false;

  /** The gate said no: this person is not (or no longer) an administrator. */
  const notAdmin = (err: unknown): boolean => {
    if (!(err instanceof AvatarApiError) || err.code !== "gpu_admin_only") return false;
    gone = true;
    if (timer) clearTimeout(timer);
    byId("gpu-admin").hidden = true;
    byId("not-admin").hidden = false;
    return true;
  };
  const signedOut = (err: unknown): boolean => {
    const p = explain(err);
    if (p.kind !== "signed_out") return false;
    notices.set("auth", "error", p.text, [{ label: "Sign in again", run: toSignIn }]);
    return true;
  };
  const words = (err: unknown) => gpuWords(err) ?? explain(err).text;

  function sync(): void {
    const s = last;
    const state = s?.gpu.state ?? "loading";
    const shown: Record<Verb, boolean> = {
      // can_launch is the portal's launch rule itself (a box on its way out does not hold the slot).
      launch: !!s && s.gpu.can_launch,
      start: state === "stopped",
      stop: state === "running",
      terminate: state === "running" || state === "stopped" || state === "pending",
    };
    for (const verb of Object.keys(buttons) as Verb[]) {
      buttons[verb].hidden = !shown[verb];
      // One verb at a time: the portal runs them one after another anyway.
      buttons[verb].disabled = acting !== null;
    }
    let text = acting ? ACTING_WORDS[acting] : s ? (STATE_WORDS[state] ?? `The machine is ${state}.`) : "Asking the portal…";
    if (!acting && s && (state === "none" || state === "terminated") && !s.gpu.can_launch) {
      text =
        s.regions.length === 0
          ? "No box exists, and this portal cannot launch one (see above)."
          : "No box exists, and no region can launch one now (no machine image or set-up for it).";
    }
    if (stateText.textContent !== text) stateText.textContent = text;
    stateLine.dataset.state = acting ? "changing" : state;
  }

  function render(s: GpuStatus): void {
    last = s;
    facts.replaceChildren(...gpuFacts(s));
    choice.render(s);
    checked.textContent = `Checked at ${new Date().toLocaleTimeString()}`;
    if (s.regions.length === 0 && !s.gpu.can_launch && s.gpu.state === "none") notices.set("driver", "warning", NO_DRIVER);
    else notices.clear("driver");
    // The portal's own words: a refused automatic stop, a region that did not answer, a second box, a launch under way.
    if (s.notice) notices.set("fleet", "warning", s.notice);
    else notices.clear("fleet");
    if (s.gpu.over_budget && !s.notice)
      notices.set(
        "budget",
        "warning",
        "The box ran past its runtime limit, so the portal is stopping it. Start it again if people still need it.",
      );
    else notices.clear("budget");
    sync();
  }

  async function checkBox(): Promise<void> {
    try {
      renderReadiness(readiness, await client.chatStatus(), null, last?.gpu.state, acting);
      boxAnswers = true;
    } catch (err) {
      boxAnswers = false;
      if (!signedOut(err)) renderReadiness(readiness, null, err, last?.gpu.state, acting);
    }
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (gone || document.visibilityState === "hidden") return;
    const moving = acting !== null || (last !== null && (MOVING.has(last.gpu.state) || (last.gpu.state === "running" && !boxAnswers)));
    timer = setTimeout(() => void refresh(), moving ? MOVING_MS : SETTLED_MS);
  }

  /** Reads the record and the box once (one read at a time), then schedules the next. */
  function refresh(): Promise<void> {
    refreshing ??= (async () => {
      try {
        render(await portalJson<GpuStatus>("GET", "/auth/gpu/status"));
        notices.clear("status");
      } catch (err) {
        if (notAdmin(err) || signedOut(err)) return;
        notices.set("status", "error", `The portal did not say how the machine is: ${words(err)} This page asks again in a moment.`);
      }
      await checkBox();
    })().finally(() => {
      refreshing = null;
      schedule();
    });
    return refreshing;
  }

  async function act(verb: Verb): Promise<void> {
    if (acting || gone) return;
    acting = verb;
    say(result, "");
    sync();
    schedule();
    try {
      const body = verb === "launch" ? choice.launchBody() : undefined;
      const s = await portalJson<GpuStatus>("POST", `/auth/gpu/${verb}`, body);
      acting = null;
      render(s);
      say(result, DONE_WORDS[verb], "ok");
    } catch (err) {
      acting = null;
      if (!notAdmin(err) && !signedOut(err)) say(result, words(err), "error");
    } finally {
      acting = null;
      sync();
      if (!gone) void refresh();
    }
  }

  buttons.launch.addEventListener("click", () => void act("launch"));
  buttons.start.addEventListener("click", () => void act("start"));
  buttons.stop.addEventListener("click", () => void act("stop"));
  buttons.terminate.addEventListener("click", () => {
    const g = last?.gpu;
    const what = byId("terminate-what");
    what.replaceChildren(...terminateWarning(g));
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "terminate") void act("terminate");
  });
  wireDiagnostics({ handled: (err) => notAdmin(err) || signedOut(err), words });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void refresh();
    else if (timer) clearTimeout(timer);
  });
  sync();
  void refresh();
}
