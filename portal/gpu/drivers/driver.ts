// Implements: Resources: GPU record (what a driver knows about the box it manages).
// Drivers: `local` (a box process on this machine), `ec2` (AWS), `none` (not configured).
import { ApiError } from "../../../shared/errors/api-error.ts";

/** EC2's instance states, plus `none` when there is no instance at all. */
export type GpuState = "none" | "pending" | "running" | "stopping" | "stopped" | "shutting-down" | "terminated";

export interface GpuInstance {
  instanceId: string;
  state: Exclude<GpuState, "none">;
  instanceType: string;
  region: string;
  availabilityZone: string | null;
  publicIp: string | null;
  hostname: string | null;
  /** Epoch seconds of the last launch or start (what the runtime budget counts from). */
  launchedAt: number | null;
  /** True when stopping the machine also deletes it. */
  ephemeral: boolean;
}

export interface GpuRegion {
  id: string;
  label: string;
  dataResident: boolean;
  canServe: boolean;
  smokeTest: boolean;
  /** Types any administrator may launch; the first is the default. */
  types: string[];
  /** Types only an owner may launch. */
  ownerTypes: string[];
}

export interface GpuStatusChecks {
  instance_status: string | null;
  system_status: string | null;
  checks: { name: string; status: string }[];
}

export interface GpuLaunchRequest {
  region: string;
  instanceType: string;
  maxRuntimeSeconds: number;
  /** Idempotency token: a launch repeated with it makes no second machine. */
  clientToken?: string;
}

/** What a driver finds: every live instance of the deployment, and the regions that could not be asked. */
export interface GpuSurvey {
  instances: GpuInstance[];
  unreachable: { region: string; message: string }[];
}

/** A launch whose answer never came (a lost response, a 5xx): the machine may or may not exist. */
export class GpuLaunchUnanswered extends ApiError {
  constructor(message: string) {
    super(502, "gpu_unavailable", message);
  }
}

export interface GpuDriver {
  readonly kind: "local" | "ec2" | "none";
  /** Whether the driver knows how to bring a box up on a fresh machine. */
  readonly bootstrapConfigured: boolean;
  /**
   * What every portal worker that manages the same box shares (the launch lease's key); null when
   * the box belongs to this process alone (the local driver).
   */
  readonly deployment: string | null;
  regions(): GpuRegion[];
  /** Every live (not terminated) instance; a region that fails is reported apart, not thrown. */
  describe(): Promise<GpuSurvey>;
  launch(req: GpuLaunchRequest): Promise<GpuInstance>;
  start(instance: GpuInstance): Promise<GpuInstance>;
  stop(instance: GpuInstance): Promise<GpuInstance>;
  terminate(instance: GpuInstance): Promise<GpuInstance>;
  statusChecks(instance: GpuInstance): Promise<GpuStatusChecks>;
  /** Where the portal forwards box paths while this driver's box runs; null when it cannot. */
  boxUrl(): string | null;
  close(): Promise<void>;
}
