// Implements: GPU lifecycle on AWS EC2 (RunInstances, Start/Stop/Terminate, Describe). Instances
// are found by their deployment tag, so any portal worker sees the same boxes; each region is asked
// apart, so one that refuses does not hide the others. Launches across workers are serialised by
// the GPU service's lease; the runtime budget is enforced there too (auto-stop past `max_runtime_seconds`).
import {
  DescribeInstancesCommand,
  DescribeInstanceStatusCommand,
  EC2Client,
  RunInstancesCommand,
  StartInstancesCommand,
  StopInstancesCommand,
  TerminateInstancesCommand,
  type Instance,
} from "@aws-sdk/client-ec2";
import { ApiError } from "../../../shared/errors/api-error.ts";
import {
  GpuLaunchUnanswered,
  type GpuDriver,
  type GpuInstance,
  type GpuLaunchRequest,
  type GpuRegion,
  type GpuStatusChecks,
  type GpuSurvey,
} from "./driver.ts";

export interface Ec2DriverOptions {
  regions: GpuRegion[];
  /** AMI to launch, per region id (a box image with the service installed). */
  imageIds: Readonly<Record<string, string>>;
  /** Value of the `avatar-service:deployment` tag that marks this deployment's box. */
  deploymentTag: string;
  /** Script run at first boot (EC2 user data); when absent the AMI must start the box itself. */
  userData?: string;
  subnetIds?: Readonly<Record<string, string>>;
  securityGroupIds?: Readonly<Record<string, string[]>>;
  keyName?: string;
  iamInstanceProfile?: string;
  /** When true the machine is deleted when it shuts itself down (a box self-terminates). */
  ephemeral?: boolean;
  /** Override of the EC2 endpoint (a local EC2-compatible server). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  maxAttempts?: number;
}

export const DEPLOYMENT_TAG_KEY = "avatar-service:deployment";
const LIVE_STATES = ["pending", "running", "stopping", "stopped", "shutting-down"];
const CAPACITY = new Set([
  "InsufficientInstanceCapacity",
  "InsufficientHostCapacity",
  "InsufficientCapacity",
  "InsufficientReservedInstanceCapacity",
]);
const QUOTA = new Set(["VcpuLimitExceeded", "InstanceLimitExceeded", "MaxSpotInstanceCountExceeded", "ResourceLimitExceeded"]);

/** Maps an EC2 error onto the GPU refusal table. */
export function mapEc2Error(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { name?: string; Code?: string })?.Code ?? (err as { name?: string })?.name ?? "";
  const message = (err as Error)?.message ?? String(err);
  if (CAPACITY.has(code)) return new ApiError(503, "gpu_no_capacity", `EC2 has no capacity for that type right now: ${message}`);
  if (QUOTA.has(code)) return new ApiError(503, "gpu_quota_exceeded", `The account's EC2 quota does not allow it: ${message}`);
  if (code === "IncorrectInstanceState") return new ApiError(409, "gpu_not_startable", `EC2 refused in this state: ${message}`);
  return new ApiError(502, "gpu_unavailable", `EC2 call failed${code ? ` (${code})` : ""}: ${message}`);
}

/** True when EC2 gave a definite answer (a 4xx refusal); false for no answer or a 5xx, after which the call may have been carried out. */
function answered(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status !== undefined && status < 500;
}

export class Ec2GpuDriver implements GpuDriver {
  readonly kind = "ec2" as const;
  readonly #clients = new Map<string, EC2Client>();

  constructor(private readonly opts: Ec2DriverOptions) {}

  get deployment(): string {
    return `ec2:${this.opts.deploymentTag}`;
  }

  get bootstrapConfigured(): boolean {
    return Boolean(this.opts.userData);
  }

  regions(): GpuRegion[] {
    // A region without an image to launch cannot serve, whatever the configuration says.
    return this.opts.regions.map((r) => ({ ...r, canServe: r.canServe && Boolean(this.opts.imageIds[r.id]) }));
  }

  async describe(): Promise<GpuSurvey> {
    const found = await Promise.allSettled(this.opts.regions.map((r) => this.describeIn(r.id)));
    const survey: GpuSurvey = { instances: [], unreachable: [] };
    found.forEach((f, n) => {
      if (f.status === "fulfilled") survey.instances.push(...f.value);
      else survey.unreachable.push({ region: this.opts.regions[n].id, message: mapEc2Error(f.reason).message });
    });
    return survey;
  }

  async launch(req: GpuLaunchRequest): Promise<GpuInstance> {
    const imageId = this.opts.imageIds[req.region];
    if (!imageId) throw new ApiError(409, "gpu_region_not_allowed", `No box image is configured for ${req.region}.`);
    const run = () =>
      this.client(req.region).send(
        new RunInstancesCommand({
          // The lease's token: a repeat of this launch (an SDK retry, or a retry after a lost answer) makes no second box.
          ClientToken: req.clientToken,
          ImageId: imageId,
          InstanceType: req.instanceType as never,
          MinCount: 1,
          MaxCount: 1,
          InstanceInitiatedShutdownBehavior: this.opts.ephemeral ? "terminate" : "stop",
          UserData: this.opts.userData ? base64Utf8(this.opts.userData) : undefined,
          SubnetId: this.opts.subnetIds?.[req.region],
          SecurityGroupIds: this.opts.securityGroupIds?.[req.region],
          KeyName: this.opts.keyName,
          IamInstanceProfile: this.opts.iamInstanceProfile ? { Name: this.opts.iamInstanceProfile } : undefined,
          TagSpecifications: [
            {
              ResourceType: "instance",
              Tags: [
                { Key: DEPLOYMENT_TAG_KEY, Value: this.opts.deploymentTag },
                { Key: "avatar-service:max-runtime-seconds", Value: String(req.maxRuntimeSeconds) },
                { Key: "Name", Value: `avatar-box (${this.opts.deploymentTag})` },
              ],
            },
          ],
        }),
      );
    let out: Awaited<ReturnType<typeof run>>;
    try {
      out = await run();
    } catch (err) {
      if (!answered(err))
        throw new GpuLaunchUnanswered(`EC2 did not answer the launch, so the box may or may not exist: ${mapEc2Error(err).message}`);
      throw mapEc2Error(err);
    }
    const instance = out.Instances?.[0];
    if (!instance) throw new ApiError(502, "gpu_unavailable", "EC2 accepted the launch but returned no instance.");
    return this.toGpuInstance(instance, req.region);
  }

  async start(instance: GpuInstance): Promise<GpuInstance> {
    const out = await this.call(instance.region, () =>
      this.client(instance.region).send(new StartInstancesCommand({ InstanceIds: [instance.instanceId] })),
    );
    return { ...instance, state: stateOf(out.StartingInstances?.[0]?.CurrentState?.Name) ?? "pending" };
  }

  async stop(instance: GpuInstance): Promise<GpuInstance> {
    const out = await this.call(instance.region, () =>
      this.client(instance.region).send(new StopInstancesCommand({ InstanceIds: [instance.instanceId] })),
    );
    return { ...instance, state: stateOf(out.StoppingInstances?.[0]?.CurrentState?.Name) ?? "stopping" };
  }

  async terminate(instance: GpuInstance): Promise<GpuInstance> {
    const out = await this.call(instance.region, () =>
      this.client(instance.region).send(new TerminateInstancesCommand({ InstanceIds: [instance.instanceId] })),
    );
    return { ...instance, state: stateOf(out.TerminatingInstances?.[0]?.CurrentState?.Name) ?? "shutting-down" };
  }

  async statusChecks(instance: GpuInstance): Promise<GpuStatusChecks> {
    const out = await this.call(instance.region, () =>
      this.client(instance.region).send(
        new DescribeInstanceStatusCommand({ InstanceIds: [instance.instanceId], IncludeAllInstances: true }),
      ),
    );
    const s = out.InstanceStatuses?.[0];
    const checks = [
      ...(s?.SystemStatus?.Details ?? []).map((d) => ({ name: `system.${d.Name}`, status: String(d.Status) })),
      ...(s?.InstanceStatus?.Details ?? []).map((d) => ({ name: `instance.${d.Name}`, status: String(d.Status) })),
    ];
    return { instance_status: s?.InstanceStatus?.Status ?? null, system_status: s?.SystemStatus?.Status ?? null, checks };
  }

  boxUrl(): string | null {
    // In production the CDN in front of the host routes box paths; the portal does not.
    return null;
  }

  async close(): Promise<void> {
    for (const c of this.#clients.values()) c.destroy();
    this.#clients.clear();
  }

  private client(region: string): EC2Client {
    let c = this.#clients.get(region);
    if (!c) {
      c = new EC2Client({
        region,
        endpoint: this.opts.endpoint,
        credentials: this.opts.credentials,
        maxAttempts: this.opts.maxAttempts ?? 2,
      });
      this.#clients.set(region, c);
    }
    return c;
  }

  private async call<T>(_region: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw mapEc2Error(err);
    }
  }

  private async describeIn(region: string): Promise<GpuInstance[]> {
    const out = await this.call(region, () =>
      this.client(region).send(
        new DescribeInstancesCommand({
          Filters: [
            { Name: `tag:${DEPLOYMENT_TAG_KEY}`, Values: [this.opts.deploymentTag] },
            { Name: "instance-state-name", Values: LIVE_STATES },
          ],
        }),
      ),
    );
    return (out.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map((i) => this.toGpuInstance(i, region)));
  }

  private toGpuInstance(i: Instance, region: string): GpuInstance {
    return {
      instanceId: i.InstanceId ?? "",
      state: stateOf(i.State?.Name) ?? "pending",
      instanceType: String(i.InstanceType ?? ""),
      region,
      availabilityZone: i.Placement?.AvailabilityZone ?? null,
      publicIp: i.PublicIpAddress ?? null,
      hostname: i.PublicDnsName || null,
      launchedAt: i.LaunchTime ? Math.floor(new Date(i.LaunchTime).getTime() / 1000) : null,
      ephemeral: Boolean(this.opts.ephemeral),
    };
  }
}

function stateOf(name: string | undefined): GpuInstance["state"] | null {
  return name && ["pending", "running", "stopping", "stopped", "shutting-down", "terminated"].includes(name)
    ? (name as GpuInstance["state"])
    : null;
}

function base64Utf8(text: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}
