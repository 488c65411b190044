// Implements: GET /api/chat/status.
import { route, type RouteDef } from "../http/route.ts";
import { readiness, type ReadinessSources } from "./service.ts";
import { ReadinessSchema } from "../../shared/wire/readiness.ts";

export function readinessRoutes(sources: ReadinessSources): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/api/chat/status",
      summary: "Whether a chat turn can run for this credential, and why not",
      envelope: "flat",
      responses: { 200: ReadinessSchema },
      handler: ({ principal }) => readiness(sources, principal.subject),
    }),
  ];
}
