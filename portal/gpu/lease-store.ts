// Implements: GPU lifecycle, one box per deployment across portal workers. The launch lease lives
// in the shared database (`gpu_launch_leases`); every write that takes it is one conditional
// statement on the row the caller observed, so of two workers racing only one gets it, whichever
// process, runtime or edge isolate they run in.
import type { Client } from "@libsql/client";

export type LeaseOutcome = "launching" | "launched" | "unanswered";

export interface GpuLease {
  deployment: string;
  /** RunInstances' ClientToken comes from it (`clientTokenOf`). */
  token: string;
  holder: string;
  region: string;
  instanceType: string;
  outcome: LeaseOutcome;
  instanceId: string | null;
  acquiredAt: number;
  expiresAt: number;
}

/** How long a lease holds without its holder (a crashed worker, a launch whose answer was lost), in seconds. */
export const LAUNCH_LEASE_SECONDS = 120;

// Taken when the row is absent or expired, or when it is still exactly the row the caller saw
// (its token): a lease whose box is listed, or a lost launch retried with the same choice.
const ACQUIRE = `INSERT INTO gpu_launch_leases (deployment, token, holder, region, instance_type, outcome, instance_id, acquired_at, expires_at)
  VALUES (?, ?, ?, ?, ?, 'launching', NULL, ?, ?)
  ON CONFLICT (deployment) DO UPDATE SET
    token = excluded.token, holder = excluded.holder, region = excluded.region, instance_type = excluded.instance_type,
    outcome = 'launching', instance_id = NULL, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
  WHERE gpu_launch_leases.expires_at <= excluded.acquired_at OR gpu_launch_leases.token = ?
  RETURNING token`;

export class GpuLeaseStore {
  constructor(
    private readonly client: Client,
    private readonly seconds = LAUNCH_LEASE_SECONDS,
  ) {}

  /** The deployment's lease unless it has expired. */
  async current(deployment: string, now: number): Promise<GpuLease | null> {
    const rs = await this.client.execute({
      sql: "SELECT * FROM gpu_launch_leases WHERE deployment = ? AND expires_at > ?",
      args: [deployment, now],
    });
    const r = rs.rows[0];
    if (!r) return null;
    return {
      deployment: String(r.deployment),
      token: String(r.token),
      holder: String(r.holder),
      region: String(r.region),
      instanceType: String(r.instance_type),
      outcome: String(r.outcome) as LeaseOutcome,
      instanceId: r.instance_id === null ? null : String(r.instance_id),
      acquiredAt: Number(r.acquired_at),
      expiresAt: Number(r.expires_at),
    };
  }

  /**
   * Takes the lease for a launch. `observed` is the live lease the caller decided it may replace
   * (null: none); `keepToken` retries that lease's launch under the same ClientToken. Null when
   * another worker got there first.
   */
  async acquire(req: {
    deployment: string;
    holder: string;
    region: string;
    instanceType: string;
    now: number;
    observed: GpuLease | null;
    keepToken: boolean;
  }): Promise<GpuLease | null> {
    const seen = req.observed?.token ?? "";
    const token = req.keepToken && req.observed ? req.observed.token : crypto.randomUUID().replace(/-/g, "");
    const expiresAt = req.now + this.seconds;
    // One statement: SQLite runs it atomically, with no transaction left to end on the connection.
    const rs = await this.client.execute({
      sql: ACQUIRE,
      args: [req.deployment, token, req.holder, req.region, req.instanceType, req.now, expiresAt, seen],
    });
    if (rs.rows.length !== 1) return null;
    return {
      deployment: req.deployment,
      token: String(rs.rows[0].token),
      holder: req.holder,
      region: req.region,
      instanceType: req.instanceType,
      outcome: "launching",
      instanceId: null,
      acquiredAt: req.now,
      expiresAt,
    };
  }

  /** The launch made `instanceId`: the lease stays until EC2 lists it (or it expires). */
  async launched(lease: GpuLease, instanceId: string, now: number): Promise<void> {
    await this.client.execute({
      sql: "UPDATE gpu_launch_leases SET outcome = 'launched', instance_id = ?, expires_at = ? WHERE deployment = ? AND token = ?",
      args: [instanceId, now + this.seconds, lease.deployment, lease.token],
    });
  }

  /** EC2's answer was lost: the box may exist. Only a retry with the same choice (same token) may launch until it expires. */
  async unanswered(lease: GpuLease, now: number): Promise<void> {
    await this.client.execute({
      sql: "UPDATE gpu_launch_leases SET outcome = 'unanswered', expires_at = ? WHERE deployment = ? AND token = ?",
      args: [now + this.seconds, lease.deployment, lease.token],
    });
  }

  /** The launch did not happen (EC2 refused, or a box was found): the lease is free again. */
  async release(lease: GpuLease): Promise<void> {
    await this.client.execute({
      sql: "DELETE FROM gpu_launch_leases WHERE deployment = ? AND token = ?",
      args: [lease.deployment, lease.token],
    });
  }

  /** Terminate ended these instances: a lease that launched one of them is over. */
  async releaseInstances(deployment: string, instanceIds: string[]): Promise<void> {
    if (instanceIds.length === 0) return;
    await this.client.execute({
      sql: `DELETE FROM gpu_launch_leases WHERE deployment = ? AND instance_id IN (${instanceIds.map(() => "?").join(", ")})`,
      args: [deployment, ...instanceIds],
    });
  }
}

/** RunInstances' ClientToken for a lease (at most 64 ASCII characters). */
export function clientTokenOf(lease: GpuLease): string {
  return `avatar-box-${lease.token}`;
}
