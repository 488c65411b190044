// Implements: Endpoints: `/auth/gpu/*` (administrator gate, owner tier, the GPU refusal table) and
// Authentication: Plane B 2. Not an administrator is 409, never 403 (fact 9). One box per
// deployment: launches take the lease in the shared database (lease-store.ts), so it holds across
// portal workers; status sees every instance of the deployment, and a region or an automatic stop
// that EC2 refuses is reported in words instead of failing the answer.
import { ApiError } from "../../shared/errors/api-error.ts";
import { GpuLaunchUnanswered, type GpuDriver, type GpuInstance, type GpuRegion, type GpuStatusChecks } from "./drivers/driver.ts";
import { billing, holdsSlot, instanceEntries, launchRefusal, noticeOf, primaryOf, type GpuView, type LaunchChoice } from "./fleet.ts";
import { clientTokenOf, type GpuLeaseStore } from "./lease-store.ts";
import type { GpuDiagnostics, GpuRecord, GpuRegionEntry, GpuStatusBody, GpuVerb } from "../../shared/wire/gpu.ts";

export interface GpuServiceOptions {
  driver: GpuDriver;
  adminEmails: readonly string[];
  ownerEmails: readonly string[];
  maxRuntimeSeconds: number;
  /** USD per hour by instance type; unknown types cost 0 in the record. */
  hourlyCostUsd: Readonly<Record<string, number>>;
  now: () => number;
  /** The launch lease in the shared database; without it launches are serialised in this process only. */
  leases?: GpuLeaseStore | null;
  /** What a hostname resolves to (diagnostics); absent on runtimes without DNS. */
  resolveHostname?: (hostname: string) => Promise<string[]>;
  log?: (msg: string, err?: unknown) => void;
}

/** How long a refused automatic stop is remembered before EC2 is asked again, in seconds. */
const STOP_RETRY_SECONDS = 60;

export type { GpuDiagnostics as Diagnostics, GpuVerb };

export class GpuService {
  readonly #admins: Set<string>;
  readonly #owners: Set<string>;
  // Names this worker in the lease row (for whoever reads the table).
  readonly #holder = `portal-${crypto.randomUUID().slice(0, 8)}`;
  // Lifecycle verbs of one portal process run one at a time; across processes the lease decides.
  #queue: Promise<unknown> = Promise.resolve();
  // Automatic stops EC2 refused, by instance: asked again only after STOP_RETRY_SECONDS, so a
  // polled status page does not send (and log) a refused stop every few seconds.
  readonly #refusedStops = new Map<string, { message: string; at: number }>();

  constructor(private readonly opts: GpuServiceOptions) {
    this.#owners = new Set(opts.ownerEmails.map((e) => e.toLowerCase()));
    // An owner is an administrator with more allowed types.
    this.#admins = new Set([...opts.adminEmails.map((e) => e.toLowerCase()), ...this.#owners]);
  }

  async status(email: string): Promise<GpuStatusBody> {
    this.assertAdmin(email);
    return this.body(email, await this.enforce());
  }

  async diagnostics(email: string): Promise<GpuDiagnostics> {
    this.assertAdmin(email);
    const view = await this.enforce();
    const instance = primaryOf(view.survey.instances);
    let checks: GpuStatusChecks = { instance_status: null, system_status: null, checks: [] };
    let unread = "";
    if (instance) {
      try {
        checks = await this.opts.driver.statusChecks(instance);
      } catch (err) {
        unread = ` Its status checks could not be read: ${(err as Error).message}`;
      }
    }
    const hostname = instance?.hostname ?? null;
    let resolvesTo: string[] | null = null;
    if (hostname && this.opts.resolveHostname) resolvesTo = await this.opts.resolveHostname(hostname).catch(() => []);
    const body = this.body(email, view);
    return {
      ...body,
      notice: (body.notice + unread).trim(),
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

  /**
   * Stops every running box past its runtime budget and returns what the portal now sees. A stop
   * that EC2 refuses (stop protection) is reported in the view, not thrown: the box still runs.
   */
  async enforce(): Promise<GpuView> {
    const view = await this.look();
    const now = this.nowSeconds();
    for (const [n, instance] of view.survey.instances.entries()) {
      if (!this.overBudget(instance)) continue;
      const refused = this.#refusedStops.get(instance.instanceId);
      if (refused && now < refused.at + STOP_RETRY_SECONDS) {
        view.stopRefused.push({ instanceId: instance.instanceId, message: refused.message });
        continue;
      }
      try {
        view.survey.instances[n] = await this.opts.driver.stop(instance);
        this.#refusedStops.delete(instance.instanceId);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.#refusedStops.set(instance.instanceId, { message, at: now });
        view.stopRefused.push({ instanceId: instance.instanceId, message });
        this.opts.log?.(`portal: box ${instance.instanceId} is past its runtime budget and the automatic stop failed`, err);
      }
    }
    return view;
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

  /** Every instance of the deployment and the lease; only when no region answers is that a failure. */
  private async look(): Promise<GpuView> {
    const driver = this.opts.driver;
    const survey = await driver.describe();
    if (survey.unreachable.length > 0 && survey.unreachable.length >= driver.regions().length) {
      throw new ApiError(
        502,
        "gpu_unavailable",
        `No region could be checked: ${survey.unreachable.map((u) => `${u.region}: ${u.message}`).join("; ")}`,
      );
    }
    const lease = driver.deployment && this.opts.leases ? await this.opts.leases.current(driver.deployment, this.nowSeconds()) : null;
    return { survey, lease, stopRefused: [] };
  }

  private async perform(email: string, verb: GpuVerb, body: { instance_type?: string; region?: string }): Promise<GpuView> {
    const driver = this.opts.driver;
    if (verb === "launch") {
      const choice = this.decideLaunch(email, body);
      return this.launch(choice, await this.look());
    }
    const view = await this.look();
    const instances = view.survey.instances;
    const current = primaryOf(instances);
    if (verb === "start") {
      if (current && (current.state === "running" || current.state === "pending")) {
        throw new ApiError(409, "gpu_already_running", "The box is already running.");
      }
      if (current?.state !== "stopped") {
        throw new ApiError(
          409,
          "gpu_not_startable",
          current ? `The box is ${current.state}; only a stopped box can start.` : "There is no box to start; launch one.",
        );
      }
      return this.replace(view, await driver.start(current));
    }
    if (verb === "stop") {
      // Every running instance of the deployment, so a second box cannot keep billing.
      for (const i of instances.filter((i) => i.state === "running" || i.state === "pending")) this.replace(view, await driver.stop(i));
      return view;
    }
    const ended: string[] = [];
    for (const i of instances.filter(holdsSlot)) {
      this.replace(view, await driver.terminate(i));
      ended.push(i.instanceId);
      this.#refusedStops.delete(i.instanceId);
    }
    if (driver.deployment && this.opts.leases) await this.opts.leases.releaseInstances(driver.deployment, ended);
    if (view.lease?.instanceId && ended.includes(view.lease.instanceId)) view.lease = null;
    return view;
  }

  private async launch(choice: LaunchChoice, view: GpuView): Promise<GpuView> {
    const { driver, leases } = this.opts;
    const refusal = launchRefusal(view, driver.regions(), choice);
    if (refusal) throw refusal;
    const request = { ...choice, maxRuntimeSeconds: this.opts.maxRuntimeSeconds };
    if (!driver.deployment || !leases) return this.replace(view, await driver.launch(request));

    const now = this.nowSeconds();
    // A lost launch is retried under its own token (EC2 then answers the box it made, if any).
    const lease = await leases.acquire({
      deployment: driver.deployment,
      holder: this.#holder,
      ...choice,
      now,
      observed: view.lease,
      keepToken: view.lease?.outcome === "unanswered",
    });
    if (!lease)
      throw new ApiError(409, "gpu_already_running", "Another portal worker started a launch at the same moment; this one was not made.");
    let instance: GpuInstance;
    try {
      instance = await driver.launch({ ...request, clientToken: clientTokenOf(lease) });
    } catch (err) {
      // No answer: the box may exist, so the lease stays (only the same launch may follow). A refusal frees it.
      await (err instanceof GpuLaunchUnanswered ? leases.unanswered(lease, now) : leases.release(lease)).catch((e) =>
        this.opts.log?.("portal: the GPU launch lease could not be updated", e),
      );
      throw err;
    }
    // Kept until EC2 lists the box, so a worker whose describe lags cannot launch a second one.
    await leases
      .launched(lease, instance.instanceId, now)
      .catch((e) => this.opts.log?.("portal: the GPU launch lease could not be updated", e));
    view.lease = { ...lease, outcome: "launched", instanceId: instance.instanceId };
    return this.replace(view, instance);
  }

  /** Puts an instance's new state into the view (adding it when new). */
  private replace(view: GpuView, instance: GpuInstance): GpuView {
    const n = view.survey.instances.findIndex((i) => i.instanceId === instance.instanceId);
    if (n >= 0) view.survey.instances[n] = instance;
    else view.survey.instances.push(instance);
    return view;
  }

  /** Region and type are re-decided here whatever the body says. */
  private decideLaunch(email: string, body: { instance_type?: string; region?: string }): LaunchChoice {
    const regions = this.opts.driver.regions();
    const region = body.region ? regions.find((r) => r.id === body.region) : regions.find((r) => r.canServe);
    if (!region?.canServe) {
      throw new ApiError(
        409,
        "gpu_region_not_allowed",
        body.region ? `Region ${body.region} is not one this deployment launches in.` : "No region is open for launches.",
      );
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

  private body(email: string, view: GpuView): GpuStatusBody {
    const now = this.nowSeconds();
    const instance = primaryOf(view.survey.instances);
    const running = instance?.state === "running" && instance.launchedAt !== null;
    const regions = this.opts.driver.regions();
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
      // What the box costs per hour now: nothing unless it runs (or is about to).
      hourly_cost_usd: billing(instance) ? (this.opts.hourlyCostUsd[instance!.instanceType] ?? 0) : 0,
      ephemeral: instance?.ephemeral ?? false,
      // The launch rule itself, so the record never offers a launch that would be refused.
      can_launch: this.opts.driver.kind !== "none" && regions.some((r) => r.canServe) && launchRefusal(view, regions, null) === null,
      bootstrap_configured: this.opts.driver.bootstrapConfigured,
    };
    return {
      gpu,
      owner: this.#owners.has(email.toLowerCase()),
      regions: regions.map(regionEntry),
      instances: instanceEntries(view.survey.instances),
      notice: noticeOf(view, regions),
    };
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
