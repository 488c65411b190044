// The `none` driver: no GPU lifecycle configured. Status still answers (can_launch false); the
// service refuses the lifecycle verbs with 503 `gpu_launch_not_configured` before reaching here.
import { ApiError } from "../../../shared/errors/api-error.ts";
import type { GpuDriver, GpuStatusChecks, GpuSurvey } from "./driver.ts";

const notConfigured = (): never => {
  throw new ApiError(503, "gpu_launch_not_configured", "No GPU launcher is configured for this deployment.");
};

export class NoGpuDriver implements GpuDriver {
  readonly kind = "none" as const;
  readonly bootstrapConfigured = false;
  readonly deployment = null;
  regions() {
    return [];
  }
  async describe(): Promise<GpuSurvey> {
    return { instances: [], unreachable: [] };
  }
  launch = notConfigured;
  start = notConfigured;
  stop = notConfigured;
  terminate = notConfigured;
  async statusChecks(): Promise<GpuStatusChecks> {
    return { instance_status: null, system_status: null, checks: [] };
  }
  boxUrl(): string | null {
    return null;
  }
  async close(): Promise<void> {}
}
