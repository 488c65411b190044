// Implements: the GPU operations (administrators): the box instance's status, start, stop, terminate
// and launch. One group of the portal's OpenAPI route table (assembled in ../operations.ts).
import { GpuStatusBody, LaunchBody } from "../../../shared/wire/gpu.ts";
import type { PortalOperation } from "./operation.ts";

const GPU_REFUSALS = { 409: ["gpu_admin_only", "gpu_already_running", "gpu_not_startable"], 502: ["gpu_unavailable"] };

export const GPU_OPERATIONS: PortalOperation[] = [
  {
    method: "GET",
    route: "/auth/gpu/status",
    tag: "GPU",
    summary: "The box's instance, regions and notices",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "GET",
    route: "/auth/gpu/diagnostics",
    tag: "GPU",
    summary: "Status plus instance checks and what the hostname resolves to",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/start",
    tag: "GPU",
    summary: "Start a stopped box",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/stop",
    tag: "GPU",
    summary: "Stop the box",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/terminate",
    tag: "GPU",
    summary: "Terminate the box (the only real off)",
    auth: "admin",
    responses: { 200: GpuStatusBody },
    refusals: GPU_REFUSALS,
  },
  {
    method: "POST",
    route: "/auth/gpu/launch",
    tag: "GPU",
    summary: "Launch a box (both fields are re-decided server side; owner tier)",
    auth: "admin",
    body: LaunchBody,
    bodyOptional: true,
    responses: { 201: GpuStatusBody },
    refusals: {
      400: ["invalid_body", "gpu_type_not_allowed"],
      403: ["gpu_type_owner_only"],
      409: ["gpu_admin_only", "gpu_already_running", "gpu_region_not_allowed"],
      502: ["gpu_unavailable"],
      503: ["gpu_no_capacity", "gpu_quota_exceeded", "gpu_launch_not_configured"],
    },
  },
];
