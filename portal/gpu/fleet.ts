// Implements: GPU record and the launch rule, from what the portal sees of the deployment: every
// instance carrying its tag (there should be one; there may be more), the regions that did not
// answer, the launch lease, and automatic stops that EC2 refused. Pure: no I/O, no clock.
import { ApiError } from "../../shared/errors/api-error.ts";
import type { GpuInstance, GpuRegion, GpuSurvey } from "./drivers/driver.ts";
import type { GpuLease } from "./lease-store.ts";
import type { GpuInstanceEntry } from "../../shared/wire/gpu.ts";

export interface GpuView {
  survey: GpuSurvey;
  lease: GpuLease | null;
  /** Automatic stops (runtime budget) that EC2 refused, with why. */
  stopRefused: { instanceId: string; message: string }[];
}

export interface LaunchChoice {
  region: string;
  instanceType: string;
}

// The record shows the most alive instance, then the newest.
const LIVENESS: Record<GpuInstance["state"], number> = {
  running: 0,
  pending: 1,
  stopping: 2,
  stopped: 3,
  "shutting-down": 4,
  terminated: 5,
};

export function primaryOf(instances: readonly GpuInstance[]): GpuInstance | null {
  const sorted = [...instances].sort((a, b) => LIVENESS[a.state] - LIVENESS[b.state] || (b.launchedAt ?? 0) - (a.launchedAt ?? 0));
  return sorted[0] ?? null;
}

/** Whether an instance holds the deployment's one slot: a machine on its way out does not. */
export function holdsSlot(i: GpuInstance): boolean {
  return i.state !== "shutting-down" && i.state !== "terminated";
}

/** EC2 bills a machine while it runs; `pending` is shown at its price because it is about to. */
export function billing(i: GpuInstance | null): boolean {
  return i?.state === "running" || i?.state === "pending";
}

const clock = (epochSeconds: number) => `${new Date(epochSeconds * 1000).toISOString().slice(11, 19)} UTC`;

/**
 * The one launch rule: why a launch would be refused now, or null. The record's `can_launch` is
 * this rule with no particular choice (a lost launch may then be retried with its own choice).
 */
export function launchRefusal(view: GpuView, regions: readonly GpuRegion[], choice: LaunchChoice | null): ApiError | null {
  const holder = primaryOf(view.survey.instances.filter(holdsSlot));
  if (holder)
    return new ApiError(409, "gpu_already_running", `A box already exists (${holder.state}); start, stop or terminate it instead.`);
  const blind = view.survey.unreachable.find((u) => regions.some((r) => r.id === u.region && r.canServe));
  if (blind) {
    return new ApiError(
      502,
      "gpu_unavailable",
      `Region ${blind.region} could not be checked (${blind.message}), so a box there cannot be ruled out; launch when it answers.`,
    );
  }
  const lease = view.lease;
  if (!lease) return null;
  if (lease.outcome === "launching") {
    return new ApiError(
      409,
      "gpu_already_running",
      `Another portal worker is launching a box (${lease.instanceType} in ${lease.region}) since ${clock(lease.acquiredAt)}.`,
    );
  }
  if (lease.outcome === "launched") {
    // Once EC2 lists it, the instance's own state decides (a box terminated at once frees the slot).
    if (view.survey.instances.some((i) => i.instanceId === lease.instanceId)) return null;
    return new ApiError(
      409,
      "gpu_already_running",
      `Box ${lease.instanceId} was launched at ${clock(lease.acquiredAt)} and EC2 does not list it yet; try again after ${clock(lease.expiresAt)}.`,
    );
  }
  if (choice && (choice.region !== lease.region || choice.instanceType !== lease.instanceType)) {
    return new ApiError(
      409,
      "gpu_already_running",
      `A launch of ${lease.instanceType} in ${lease.region} got no answer from EC2, so that box may exist. Launch the same again (it cannot make a second box), or wait until ${clock(lease.expiresAt)}.`,
    );
  }
  return null;
}

/** What the record cannot say, in words (empty when nothing is amiss). */
export function noticeOf(view: GpuView, regions: readonly GpuRegion[]): string {
  const out: string[] = [];
  const holders = view.survey.instances.filter(holdsSlot);
  if (holders.length > 1) {
    const shown = primaryOf(holders)!;
    const list = holders.map((i) => `${i.instanceId} ${i.state} in ${i.region}`).join(", ");
    out.push(
      `${holders.length} boxes carry this deployment's tag (${list}); the record shows ${shown.instanceId}. Terminate ends them all.`,
    );
  }
  for (const r of view.stopRefused) {
    out.push(
      `Box ${r.instanceId} ran past its runtime budget, but EC2 refused to stop it (${r.message}). It is still running and billing: terminate it, or lift its stop protection.`,
    );
  }
  for (const u of view.survey.unreachable) {
    const serves = regions.some((r) => r.id === u.region && r.canServe);
    out.push(
      `Region ${u.region} could not be checked (${u.message}), so a box there would not show here${serves ? "; no launch until it answers" : ""}.`,
    );
  }
  const lease = view.lease;
  if (lease && holders.length === 0) {
    if (lease.outcome === "launching")
      out.push(`Another portal worker is launching a box (${lease.instanceType} in ${lease.region}) since ${clock(lease.acquiredAt)}.`);
    else if (lease.outcome === "unanswered") {
      out.push(
        `A launch of ${lease.instanceType} in ${lease.region} got no answer from EC2, so that box may exist; launching the same again is safe (it cannot make a second box), any other launch waits until ${clock(lease.expiresAt)}.`,
      );
    } else if (!view.survey.instances.some((i) => i.instanceId === lease.instanceId))
      out.push(`Box ${lease.instanceId} was just launched; EC2 does not list it yet.`);
  }
  return out.join(" ");
}

export function instanceEntries(instances: readonly GpuInstance[]): GpuInstanceEntry[] {
  return [...instances]
    .sort((a, b) => (b.launchedAt ?? 0) - (a.launchedAt ?? 0))
    .map((i) => ({
      instance_id: i.instanceId,
      state: i.state,
      region: i.region,
      instance_type: i.instanceType,
      launched_at: i.launchedAt,
    }));
}
