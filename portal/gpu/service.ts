// Implements: Endpoints: `/auth/gpu/*` (administrator gate, owner tier, the GPU refusal table) and
// Authentication: Plane B 2. Not an administrator is 409, never 403 (fact 9).
import { ApiError } from "../../shared/errors/api-error.ts";
import type { GpuDriver, GpuInstance, GpuRegion } from "./drivers/driver.ts";
import type { GpuRecord, GpuRegionEntry, GpuStatusBody } from "./schema.ts";

export interface GpuServiceOptions {
  driver: GpuDriver;
  adminEmails: readonly string[];
  ownerEmails: readonly string[];
  maxRuntimeSeconds: number;
  /** USD per hour by instance type; unknown types cost 0 in the record. */
  hourlyCostUsd: Readonly<Record<string, number>>;
  now: () => number;
  /** What a hostname resolves to (diagnostics); absent on runtimes without DNS. */
  resolveHostname?: (hostname: string) => Promise<string[]>;
}

export type GpuVerb = "start" | "stop" | "launch" | "terminate";

export interface Diagnostics extends GpuStatusBody {
  diagnostics: {
    instance_status: string | null;
    system_status: string | null;
    checks: { name: string; status: string }[];
    hostname: string | null;
    resolves_to: string[] | null;
    resolves_to_public_ip: boolean | null;
  };
}

export class GpuService {
  readonly #admins: Set<string>;
  readonly #owners: Set<string>;
  // Lifecycle verbs of one portal process run one at a time, so two launches cannot both see "none".
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: GpuServiceOptions) {
    this.#owners = new Set(opts.ownerEmails.map((e) => e.toLowerCase()));
    // An owner is an administrator with more allowed types.
    this.#admins = new Set([...opts.adminEmails.map((e) => e.toLowerCase()), ...this.#owners]);
  }

  async status(email: string): Promise<GpuStatusBody> {
    this.assertAdmin(email);
    return this.body(email, await this.enforce());
  }

  async diagnostics(email: string): Promise<Diagnostics> {
    this.assertAdmin(email);
    const instance = await this.enforce();
    const checks = instance ? await this.opts.driver.statusChecks(instance) : { instance_status: null, system_status: null, checks: [] };
    const hostname = instance?.hostname ?? null;
    let resolvesTo: string[] | null = null;
    if (hostname && this.opts.resolveHostname) resolvesTo = await this.opts.resolveHostname(hostname).catch(() => []);
    return {
      ...this.body(email, instance),
      diagnostics: {
        ...checks,
        hostname,
        resolves_to: resolvesTo,
        resolves_to_public_ip: resolvesTo && instance?.publicIp ? resolvesTo.includes(instance.publicIp) : null,
      },
    };
  }

  async run(email: string, verb: GpuVerb, body: { instance_type?: string; region?: string } = {}): Promise<GpuStatusBody> {
    this.assertAdmin(email);
    if (this.opts.driver.kind === "none") {
      throw new ApiError(503, "gpu_launch_not_configured", "No GPU launcher is configured for this deployment.");
    }
    const task = this.#queue.then(() => this.perform(email, verb, body));
    this.#queue = task.catch(() => undefined);
    return this.body(email, await task);
  }

  /** Stops a running box past its runtime budget; returns the instance as it now stands. */
  async enforce(): Promise<GpuInstance | null> {
    const instance = await this.opts.driver.describe();
    if (instance && this.overBudget(instance)) return this.opts.driver.stop(instance);
    return instance;
  }

  isAdmin(email: string): boolean {
    return this.#admins.has(email.toLowerCase());
  }

  /** The administrator gate: 409 `gpu_admin_only`, never 403 (fact 9). */
  assertAdmin(email: string): void {
    if (!this.isAdmin(email)) {
      throw new ApiError(409, "gpu_admin_only", "GPU controls are for this deployment's administrators.");
    }
  }

  private async perform(email: string, verb: GpuVerb, body: { instance_type?: string; region?: string }): Promise<GpuInstance | null> {
    const driver = this.opts.driver;
    if (verb === "launch") {
      const { region, instanceType } = this.decideLaunch(email, body);
      const current = await driver.describe();
      // A machine on its way out does not hold the slot.
      if (current && current.state !== "terminated" && current.state !== "shutting-down") {
        throw new ApiError(409, "gpu_already_running", `A box already exists (${current.state}); start, stop or terminate it instead.`);
      }
      return driver.launch({ region, instanceType, maxRuntimeSeconds: this.opts.maxRuntimeSeconds });
    }
    const current = await driver.describe();
    if (verb === "start") {
      if (current && (current.state === "running" || current.state === "pending")) {
        throw new ApiError(409, "gpu_already_running", "The box is already running.");
      }
      if (!current || current.state !== "stopped") {
        throw new ApiError(409, "gpu_not_startable", current ? `The box is ${current.state}; only a stopped box can start.` : "There is no box to start; launch one.");
      }
      return driver.start(current);
    }
    if (!current || current.state === "terminated") return current;
    if (verb === "stop") return current.state === "stopped" || current.state === "stopping" ? current : driver.stop(current);
    return driver.terminate(current);
  }

  /** Region and type are re-decided here whatever the body says. */
  private decideLaunch(email: string, body: { instance_type?: string; region?: string }): { region: string; instanceType: string } {
    const regions = this.opts.driver.regions();
    const region = body.region ? regions.find((r) => r.id === body.region) : regions.find((r) => r.canServe);
    if (!region || !region.canServe) {
      throw new ApiError(409, "gpu_region_not_allowed", body.region ? `Region ${body.region} is not one this deployment launches in.` : "No region is open for launches.");
    }
    const owner = this.#owners.has(email.toLowerCase());
    const instanceType = body.instance_type ?? region.types[0] ?? (owner ? region.ownerTypes[0] : undefined);
    if (!instanceType || (!region.types.includes(instanceType) && !region.ownerTypes.includes(instanceType))) {
      throw new ApiError(400, "gpu_type_not_allowed", `Instance type ${instanceType ?? "(none)"} is not offered in ${region.id}.`);
    }
    if (!region.types.includes(instanceType) && !owner) {
      throw new ApiError(403, "gpu_type_owner_only", `Instance type ${instanceType} is reserved for the deployment's owners.`);
    }
    return { region: region.id, instanceType };
  }

  private overBudget(instance: GpuInstance): boolean {
    // A budget of 0 means none: the box runs until stopped.
    const max = this.opts.maxRuntimeSeconds;
    return max > 0 && instance.state === "running" && instance.launchedAt !== null && this.nowSeconds() >= instance.launchedAt + max;
  }

  private body(email: string, instance: GpuInstance | null): GpuStatusBody {
    const now = this.nowSeconds();
    const running = instance?.state === "running" && instance.launchedAt !== null;
    const live = instance !== null && instance.state !== "terminated";
    const gpu: GpuRecord = {
      instance_id: instance?.instanceId ?? null,
      state: instance?.state ?? "none",
      instance_type: instance?.instanceType ?? null,
      region: instance?.region ?? null,
      availability_zone: instance?.availabilityZone ?? null,
      public_ip: instance?.publicIp ?? null,
      hostname: instance?.hostname ?? null,
      launched_at: instance?.launchedAt ?? null,
      running_seconds: running ? Math.max(0, now - instance.launchedAt!) : 0,
      max_runtime_seconds: this.opts.maxRuntimeSeconds,
      auto_stop_at: running && this.opts.maxRuntimeSeconds > 0 ? instance.launchedAt! + this.opts.maxRuntimeSeconds : null,
      over_budget: instance ? this.overBudget(instance) : false,
      hourly_cost_usd: live ? (this.opts.hourlyCostUsd[instance.instanceType] ?? 0) : 0,
      ephemeral: instance?.ephemeral ?? false,
      can_launch: this.opts.driver.kind !== "none" && !live && this.opts.driver.regions().some((r) => r.canServe),
      bootstrap_configured: this.opts.driver.bootstrapConfigured,
    };
    return { gpu, owner: this.#owners.has(email.toLowerCase()), regions: this.opts.driver.regions().map(regionEntry) };
  }

  private nowSeconds(): number {
    return Math.floor(this.opts.now() / 1000);
  }
}

function regionEntry(r: GpuRegion): GpuRegionEntry {
  return {
    id: r.id,
    label: r.label,
    data_resident: r.dataResident,
    can_serve: r.canServe,
    smoke_test: r.smokeTest,
    types: [...r.types],
    owner_types: [...r.ownerTypes],
  };
}
