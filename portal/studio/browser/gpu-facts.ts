// Implements: the GPU page's facts about the machine as definition-list rows: where it runs, its
// address, how long it has run, what it costs, its runtime limit and set-up, from the GPU record.
import type { GpuRecord, GpuStatusBody as GpuStatus } from "../../../shared/wire/gpu.ts";
import { h } from "./dom.ts";

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const min = Math.floor(seconds / 60);
  if (min < 60) return `${min} min`;
  return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${min / 60} h`;
}
const clockAt = (epochSeconds: number) => new Date(epochSeconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const usd = (n: number) => `$${n < 10 ? n.toFixed(2) : n.toFixed(0)}`;
/** A box on the portal's own machine (the local driver), not a cloud machine. */
export const isLocal = (g: GpuRecord) => g.region === "local" || g.instance_type === "local";

/** One term and its value. */
export const row = (term: string, ...value: (Node | string)[]) => [h("dt", {}, term), h("dd", {}, ...value)];

/** What the record says about the machine, as the rows of the facts list. */
export function gpuFacts(s: GpuStatus): HTMLElement[] {
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
  return out;
}
