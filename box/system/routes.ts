// Implements: GET /health, GET /api/stats, POST /disconnect, POST /api/interrupt, GET /openapi.json.
import { Type } from "@sinclair/typebox";
import { route, type RouteDef } from "../http/route.ts";
import type { StatsService } from "./stats.ts";
import type { LiveControl } from "./live.ts";

const Ok = Type.Object({ ok: Type.Literal(true) });

export function systemRoutes(stats: StatsService, live: LiveControl, openapi: () => unknown): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/",
      summary: "What this is and where its API description lives (public)",
      envelope: "flat",
      responses: { 200: Type.Object({ service: Type.String(), status: Type.Literal("ok"), openapi: Type.String() }) },
      handler: () => ({ service: "avatar box", status: "ok", openapi: "/openapi.json" }),
    }),
    route({
      method: "GET",
      path: "/health",
      summary: "Liveness, the picked identity and the face playing now (public)",
      envelope: "flat",
      responses: {
        200: Type.Object({
          status: Type.Literal("ok"),
          avatar: Type.Union([Type.String(), Type.Null()]),
          speaking_face: Type.Union([Type.String(), Type.Null()]),
        }),
      },
      handler: () => ({ status: "ok", ...live.health() }),
    }),
    route({
      method: "GET",
      path: "/api/stats",
      summary: "CPU and GPU figures and the self-termination countdown (full key)",
      envelope: "flat",
      responses: {
        200: Type.Object({
          shutdown_minutes: Type.Union([Type.Integer(), Type.Null()]),
          cpu_percent: Type.Number(),
          cpu_cores: Type.Integer(),
          gpus: Type.Array(Type.Object({ name: Type.String(), memory_used_mb: Type.Number(), utilization: Type.Number() })),
        }),
      },
      handler: () => stats.snapshot(),
    }),
    route({
      method: "POST",
      path: "/disconnect",
      summary: "Tear down the live session synchronously (with or without one)",
      envelope: "flat",
      responses: { 200: Ok },
      handler: () => (live.disconnect(), { ok: true }),
    }),
    route({
      method: "POST",
      path: "/api/interrupt",
      summary: "Stop speech at the next frame; the body is never read",
      envelope: "flat",
      responses: { 200: Ok },
      handler: () => (live.interrupt(), { ok: true }),
    }),
    route({
      method: "GET",
      path: "/openapi.json",
      summary: "This document (public)",
      envelope: "flat",
      responses: { 200: Type.Object({ openapi: Type.String() }) },
      handler: openapi,
    }),
  ];
}
