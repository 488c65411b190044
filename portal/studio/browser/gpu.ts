// The GPU page for administrators (portal/studio/gpu-page.tsx renders its skeleton): the GPU
// record in words, polled while the page is visible (sooner while something is changing), the
// box's readiness through the client library, the verbs that make sense for the state (each
// button off while a verb runs; terminate after a dialog), diagnostics on demand. A 409
// `gpu_admin_only` (the gate changed under the page) turns the page into the not-for-you sentence.
import { AvatarApiError, AvatarClient, portalCredentialProvider, type Readiness } from "../../../shared/client/index.ts";
import { byId, h, Notices, say } from "./dom.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { explain } from "./words.ts";
import type {
  GpuDiagnostics,
  GpuRecord,
  GpuRegionEntry as GpuRegion,
  GpuStatusBody as GpuStatus,
  GpuVerb,
} from "../../../shared/wire/gpu.ts";

type Diagnostics = GpuDiagnostics;
type Verb = GpuVerb;

const SETTLED_MS = 5_000;
const MOVING_MS = 2_000;
const MOVING = new Set(["pending", "stopping", "shutting-down"]);

export const NO_DRIVER =
  "This portal cannot start a box: it has no GPU driver (PORTAL_GPU_DRIVER is none, or no region is configured). To let it, whoever runs the portal sets " +
  "PORTAL_GPU_DRIVER=local (a box on the portal's own machine) or PORTAL_GPU_DRIVER=ec2 with PORTAL_GPU_REGIONS and PORTAL_EC2_IMAGE_IDS, and restarts it; " +
  "or starts a box by hand and sets PORTAL_BOX_URL to it.";

const STATE_WORDS: Record<string, string> = {
  none: "No box exists. Launch one to use the avatar.",
  pending: "Starting: the machine is booting; the box answers a minute or two after it runs.",
  running: "Running.",
  stopping: "Stopping…",
  stopped: "Stopped: no machine cost while stopped. Start it to use the avatar.",
  "shutting-down": "Terminating: the machine is being deleted.",
  terminated: "Terminated: the machine is gone. Launch a new one to use the avatar.",
};
const ACTING_WORDS: Record<Verb, string> = {
  start: "Starting the box… the portal answers when it is up.",
  stop: "Stopping the box…",
  launch: "Launching a box… the portal answers when the machine is on its way.",
  terminate: "Terminating the box…",
};

const sentence = (t: string) => (/[.!?]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);

/** GPU refusals in words (the spec's GPU table); null for anything `explain()` says well. */
export function gpuWords(err: unknown): string | null {
  if (!(err instanceof AvatarApiError)) return null;
  const m = sentence(err.message);
  switch (err.code) {
    case "gpu_launch_not_configured":
      return NO_DRIVER;
    case "gpu_already_running":
    case "gpu_not_startable":
      return `${m} The state above is the current one.`;
    case "gpu_region_not_allowed":
    case "gpu_type_not_allowed":
    case "gpu_type_owner_only":
      return `${m} Pick another region or machine type.`;
    case "gpu_no_capacity":
      return `The provider has no free machine of that type there right now: ${m} Try again in a few minutes, or pick another type or region.`;
    case "gpu_quota_exceeded":
      return `The cloud account's quota for this machine type is used up: ${m} Raise it in the provider's console (AWS Service Quotas) or pick a smaller type.`;
    case "gpu_unavailable":
      return `The machine's provider failed: ${m} Try again; if it keeps failing, the portal's log says more.`;
    default:
      return null;
  }
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const min = Math.floor(seconds / 60);
  if (min < 60) return `${min} min`;
  return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${min / 60} h`;
}
const clockAt = (epochSeconds: number) => new Date(epochSeconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const usd = (n: number) => `$${n < 10 ? n.toFixed(2) : n.toFixed(0)}`;
const isLocal = (g: GpuRecord) => g.region === "local" || g.instance_type === "local";

export function startGpu(): void {
  if (document.body.dataset.admin !== "1") return;
  const notices = new Notices(byId("notices"));
  const stateLine = byId("gpu-state");
  const stateText = stateLine.querySelector<HTMLElement>(".gpu-state-text")!;
  const checked = byId("gpu-checked");
  const facts = byId("gpu-facts");
  const choice = byId("gpu-launch-choice");
  const regionSel = byId<HTMLSelectElement>("gpu-region");
  const typeSel = byId<HTMLSelectElement>("gpu-type");
  const result = byId("gpu-result");
  const readiness = byId("box-readiness");
  const details = byId<HTMLDetailsElement>("gpu-diagnostics");
  const diagBody = byId("diagnostics-body");
  const diagBtn = byId<HTMLButtonElement>("diagnostics-refresh");
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

  const row = (term: string, ...value: (Node | string)[]) => [h("dt", {}, term), h("dd", {}, ...value)];

  function renderFacts(s: GpuStatus): void {
    const g = s.gpu;
    const out: HTMLElement[] = [];
    if (g.state !== "none" && g.state !== "terminated") {
      const region = s.regions.find((r) => r.id === g.region);
      out.push(
        ...row(
          "Machine",
          isLocal(g)
            ? "A box process on the portal's own machine (the local driver)."
            : `${g.instance_type ?? "unknown type"} in ${region ? `${region.label} (${g.region})` : (g.region ?? "an unknown region")}${g.availability_zone ? `, zone ${g.availability_zone}` : ""}`,
        ),
      );
      if (g.instance_id) out.push(...row("Instance", h("code", {}, g.instance_id)));
      if (g.hostname || g.public_ip) out.push(...row("Address", h("code", {}, g.hostname ?? g.public_ip ?? "")));
    }
    if (g.state === "running" && g.launched_at !== null)
      out.push(...row("Running for", `${duration(g.running_seconds)} (since ${clockAt(g.launched_at)})`));
    else if (g.launched_at !== null && g.state !== "none") out.push(...row("Last started", clockAt(g.launched_at)));
    if (g.state !== "none" && g.state !== "terminated") {
      let cost: string;
      if (g.hourly_cost_usd > 0) {
        const soFar =
          g.state === "running"
            ? `; about ${usd((g.hourly_cost_usd * g.running_seconds) / 3600)} since it last started`
            : "; nothing while stopped (the provider still bills its disk)";
        cost = `${usd(g.hourly_cost_usd)} per hour while running${soFar}.`;
      } else if (isLocal(g)) cost = "None: it runs on the portal's own machine.";
      // The record prices a machine only while it runs (or is about to).
      else if (g.state !== "running" && g.state !== "pending")
        cost = "Nothing per hour while it is not running (the provider still bills its disk).";
      else cost = `Not known for ${g.instance_type ?? "this type"} (whoever runs the portal can set PORTAL_GPU_HOURLY_COST_USD).`;
      out.push(...row("Cost", cost));
    }
    if (g.state !== "none" || g.can_launch)
      out.push(
        ...row(
          "Runtime limit",
          g.max_runtime_seconds > 0
            ? `${duration(g.max_runtime_seconds)} per start${g.auto_stop_at ? `: it stops by itself at ${clockAt(g.auto_stop_at)}` : ""}.`
            : "None: it runs until someone stops it.",
        ),
      );
    if (g.ephemeral) out.push(...row("Stopping", "Deletes the machine (it is ephemeral): stopping it is the same as terminating."));
    if (!g.bootstrap_configured && s.regions.length > 0)
      out.push(...row("Set-up script", "None (PORTAL_EC2_USER_DATA_FILE): a new machine will not start the box by itself."));
    facts.replaceChildren(...out);
  }

  function renderChoice(s: GpuStatus): void {
    const servable = s.regions.filter((r) => r.can_serve);
    const typesOf = (r: GpuRegion | undefined) => (r ? [...r.types, ...(s.owner ? r.owner_types : [])] : []);
    const show = s.gpu.can_launch && (servable.length > 1 || typesOf(servable[0]).length > 1);
    choice.hidden = !show;
    if (!show) return;
    if (regionSel.options.length !== servable.length) {
      regionSel.replaceChildren(
        ...servable.map((r) => h("option", { value: r.id }, `${r.label} (${r.id})${r.data_resident ? ", data stays in the country" : ""}`)),
      );
    }
    const region = servable.find((r) => r.id === regionSel.value) ?? servable[0];
    const types = typesOf(region);
    if ([...typeSel.options].map((o) => o.value).join() !== types.join()) {
      typeSel.replaceChildren(...types.map((t) => h("option", { value: t }, region.types.includes(t) ? t : `${t} (owners only)`)));
    }
  }

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
    renderFacts(s);
    renderChoice(s);
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

  /** Replaces the list only when what it says changed: it is a live region, polled every few seconds. */
  function setReadiness(...items: HTMLElement[]): void {
    const said = (els: Iterable<Element>) => [...els].map((e) => `${e.className}:${e.textContent}`).join("|");
    if (said(items) !== said(readiness.children)) readiness.replaceChildren(...items);
  }

  function renderReadiness(r: Readiness | null, err: unknown): void {
    const item = (ok: boolean | "wait", text: string) =>
      h(
        "li",
        { class: ok === "wait" ? "wait" : ok ? "up" : "down" },
        h("span", { class: "mark", "aria-hidden": "true" }, ok === "wait" ? "…" : ok ? "✓" : "✗"),
        h("span", {}, text),
      );
    if (r) {
      setReadiness(
        item(true, "The box answers."),
        item(
          r.llm_state === "starting" ? "wait" : r.llm,
          r.llm
            ? "Language model: ready."
            : `Language model: ${r.llm_state.replace(/_/g, " ")}${r.llm_detail ? ` (${r.llm_detail})` : ""}.`,
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
    const state = last?.gpu.state;
    const why =
      p.kind !== "box_stopped"
        ? p.text
        : state === "running" || state === "pending" || acting === "start" || acting === "launch"
          ? "The box does not answer yet: it may still be starting. This page asks again in a moment."
          : "The box does not answer: it is not running.";
    setReadiness(item(p.kind === "box_stopped" && state === "running" ? "wait" : false, why));
  }

  async function checkBox(): Promise<void> {
    try {
      renderReadiness(await client.chatStatus(), null);
      boxAnswers = true;
    } catch (err) {
      boxAnswers = false;
      if (!signedOut(err)) renderReadiness(null, err);
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
      const body =
        verb === "launch" && !choice.hidden
          ? { region: regionSel.value, instance_type: typeSel.value }
          : verb === "launch"
            ? {}
            : undefined;
      const s = await portalJson<GpuStatus>("POST", `/auth/gpu/${verb}`, body);
      acting = null;
      render(s);
      const done: Record<Verb, string> = {
        start: "Started: the box is up.",
        stop: "Stopped: the box is off, and the machine costs nothing while stopped.",
        launch: "Launched: the machine is on its way; the box answers once it has booted.",
        terminate: "Terminated: the machine is gone.",
      };
      say(result, done[verb], "ok");
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
    what.replaceChildren(
      ...(g && isLocal(g)
        ? [
            h(
              "p",
              {},
              "The box process on this machine ends and the portal forgets it: calls in progress end, and using the avatar again means launching a new box.",
            ),
            h(
              "p",
              {},
              "Its data folder on this machine (PORTAL_BOX_DATA_DIR: prepared avatars, clips, voices) stays on disk, and a new box reads it again.",
            ),
          ]
        : [
            h("p", {}, "The machine ", h("code", {}, g?.instance_id ?? ""), " and its disk are deleted for good. Calls in progress end."),
            h(
              "p",
              {},
              "Lost with it: whatever the box kept only on that disk (prepared faces, clips not yet archived, voices uploaded to it, conversation transcripts). Portraits and clips archived in the portal stay in your library.",
            ),
            h(
              "p",
              {},
              "A new launch starts from the image and takes several minutes. This cannot be undone; Stop keeps the machine and costs nothing while stopped.",
            ),
          ]),
    );
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "terminate") void act("terminate");
  });
  regionSel.addEventListener("change", () => last && renderChoice(last));

  async function diagnose(): Promise<void> {
    diagBtn.disabled = true;
    try {
      const d = (await portalJson<Diagnostics>("GET", "/auth/gpu/diagnostics")).diagnostics;
      const yesNo = (v: boolean | null) => (v === null ? "not known" : v ? "yes" : "no");
      diagBody.replaceChildren(
        h(
          "dl",
          { class: "gpu-facts" },
          ...row("Instance status", d.instance_status ?? "not applicable"),
          ...row("System status", d.system_status ?? "not applicable"),
          ...row(
            "Checks",
            d.checks.length
              ? h("ul", { class: "gpu-checks" }, ...d.checks.map((c) => h("li", {}, h("code", {}, c.name), `: ${c.status}`)))
              : "none",
          ),
          ...row("Hostname", d.hostname ? h("code", {}, d.hostname) : "none"),
          ...row("Resolves to", d.resolves_to === null ? "not looked up" : d.resolves_to.length ? d.resolves_to.join(", ") : "nothing"),
          ...row("Resolves to its public address", yesNo(d.resolves_to_public_ip)),
        ),
        h("p", { class: "hint" }, `Checked at ${new Date().toLocaleTimeString()}.`),
      );
    } catch (err) {
      if (notAdmin(err) || signedOut(err)) return;
      diagBody.replaceChildren(h("p", { class: "result error" }, `The diagnostics could not be read: ${words(err)}`));
    } finally {
      diagBtn.disabled = false;
    }
  }
  details.addEventListener("toggle", () => {
    if (details.open) void diagnose();
  });
  diagBtn.addEventListener("click", () => void diagnose());

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") void refresh();
    else if (timer) clearTimeout(timer);
  });
  sync();
  void refresh();
}
