// Implements: the GPU page's sentences (no DOM): the machine's states, what each verb is doing and
// has done, the no-driver explanation, and the spec's GPU refusals in words.
import { AvatarApiError } from "../../../shared/client/index.ts";
import type { GpuVerb as Verb } from "../../../shared/wire/gpu.ts";

export const NO_DRIVER =
  "This portal cannot start a box: it has no GPU driver (PORTAL_GPU_DRIVER is none, or no region is configured). To let it, whoever runs the portal sets " +
  "PORTAL_GPU_DRIVER=local (a box on the portal's own machine) or PORTAL_GPU_DRIVER=ec2 with PORTAL_GPU_REGIONS and PORTAL_EC2_IMAGE_IDS, and restarts it; " +
  "or starts a box by hand and sets PORTAL_BOX_URL to it.";

export const STATE_WORDS: Record<string, string> = {
  none: "No box exists. Launch one to use the avatar.",
  pending: "Starting: the machine is booting; the box answers a minute or two after it runs.",
  running: "Running.",
  stopping: "Stopping…",
  stopped: "Stopped: no machine cost while stopped. Start it to use the avatar.",
  "shutting-down": "Terminating: the machine is being deleted.",
  terminated: "Terminated: the machine is gone. Launch a new one to use the avatar.",
};
export const ACTING_WORDS: Record<Verb, string> = {
  start: "Starting the box… the portal answers when it is up.",
  stop: "Stopping the box…",
  launch: "Launching a box… the portal answers when the machine is on its way.",
  terminate: "Terminating the box…",
};
export const DONE_WORDS: Record<Verb, string> = {
  start: "Started: the box is up.",
  stop: "Stopped: the box is off, and the machine costs nothing while stopped.",
  launch: "Launched: the machine is on its way; the box answers once it has booted.",
  terminate: "Terminated: the machine is gone.",
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
