// Implements: Resources: GPU record (portal, `gpu` object) and its `regions[]`, as the portal
// answers them and the studio's GPU page reads them. Beside them, for what one record cannot
// hold: `instances[]` (every instance carrying the deployment's tag) and `notice` (a sentence:
// a refused automatic stop, a region that did not answer, a launch under way).
import { Type, type Static } from "@sinclair/typebox";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const GpuRecord = Type.Object({
  instance_id: Nullable(Type.String()),
  state: Type.String(),
  instance_type: Nullable(Type.String()),
  region: Nullable(Type.String()),
  availability_zone: Nullable(Type.String()),
  public_ip: Nullable(Type.String()),
  hostname: Nullable(Type.String()),
  launched_at: Nullable(Type.Integer()),
  running_seconds: Type.Integer(),
  max_runtime_seconds: Type.Integer(),
  auto_stop_at: Nullable(Type.Integer()),
  over_budget: Type.Boolean(),
  hourly_cost_usd: Type.Number(),
  ephemeral: Type.Boolean(),
  can_launch: Type.Boolean(),
  bootstrap_configured: Type.Boolean(),
});
export type GpuRecord = Static<typeof GpuRecord>;

export const GpuRegionEntry = Type.Object({
  id: Type.String(),
  label: Type.String(),
  data_resident: Type.Boolean(),
  can_serve: Type.Boolean(),
  smoke_test: Type.Boolean(),
  types: Type.Array(Type.String()),
  owner_types: Type.Array(Type.String()),
});
export type GpuRegionEntry = Static<typeof GpuRegionEntry>;

export const GpuInstanceEntry = Type.Object({
  instance_id: Type.String(),
  state: Type.String(),
  region: Type.String(),
  instance_type: Type.String(),
  launched_at: Nullable(Type.Integer()),
});
export type GpuInstanceEntry = Static<typeof GpuInstanceEntry>;

export const GpuStatusBody = Type.Object({
  gpu: GpuRecord,
  owner: Type.Boolean(),
  regions: Type.Array(GpuRegionEntry),
  /** Every live instance of the deployment, newest first (the record shows one of them). */
  instances: Type.Array(GpuInstanceEntry),
  /** Empty unless something needs saying. */
  notice: Type.String(),
});
export type GpuStatusBody = Static<typeof GpuStatusBody>;

export const LaunchBody = Type.Object({
  instance_type: Type.Optional(Type.String({ maxLength: 64 })),
  region: Type.Optional(Type.String({ maxLength: 64 })),
});
export type LaunchBody = Static<typeof LaunchBody>;

/** `GET /auth/gpu/diagnostics`: the status body and what the driver and DNS say about the machine. */
export interface GpuDiagnostics extends GpuStatusBody {
  diagnostics: {
    instance_status: string | null;
    system_status: string | null;
    checks: { name: string; status: string }[];
    hostname: string | null;
    resolves_to: string[] | null;
    resolves_to_public_ip: boolean | null;
  };
}

/** The lifecycle verbs (`POST /auth/gpu/{verb}`). */
export type GpuVerb = "start" | "stop" | "launch" | "terminate";
