// Implements: GET /health, GET /api/stats, POST /disconnect, POST /api/interrupt, GET /openapi.json.
import { Type } from "@sinclair/typebox";
import { Health, Ok, RootInfo, Stats } from "../../shared/wire/system.ts";
import { route, type RouteDef } from "../http/route.ts";
import type { StatsService } from "./stats.ts";
import type { LiveControl } from "./live.ts";

export function systemRoutes(stats: StatsService, live: LiveControl, openapi: () => unknown): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/",
      summary: "What this is and where its API description lives (public)",
      envelope: "flat",
      responses: { 200: RootInfo },
      handler: () => ({ service: "avatar box", status: "ok", openapi: "/openapi.json" }),
    }),
    route({
      method: "GET",
      path: "/health",
      summary: "Liveness, the picked identity and the face playing now (public)",
      envelope: "flat",
      responses: { 200: Health },
      handler: () => ({ status: "ok", ...live.health() }),
    }),
    route({
      method: "GET",
      path: "/api/stats",
      summary: "CPU and GPU figures and the self-termination countdown (full key)",
      envelope: "flat",
      responses: { 200: Stats },
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
