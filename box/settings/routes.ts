// Implements: GET /api/settings, POST /api/settings (refusals `{ok:false, error:{code,message}}`).
import { Type } from "@sinclair/typebox";
import { route, type RouteDef } from "../http/route.ts";
import { readJsonObject } from "../http/json-body.ts";
import type { SettingsService } from "./service.ts";
import { SettingsEnvelope, SettingsRecord, SettingsWriteAnswer, SettingsRefusal } from "../../shared/wire/settings.ts";

export const SETTINGS_BODY_LIMIT = 256 * 1024;

export function settingsRoutes(service: SettingsService): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/api/settings",
      summary: "This credential's settings record with the model catalogue",
      envelope: "flat",
      responses: { 200: SettingsEnvelope },
      handler: ({ principal }) => service.envelope(principal.subject),
    }),
    route({
      method: "POST",
      path: "/api/settings",
      summary: "Write any subset of the settable fields (tools written whole)",
      envelope: "settings",
      body: Type.Partial(SettingsRecord),
      responses: {
        200: SettingsWriteAnswer,
        400: SettingsRefusal,
        413: SettingsRefusal,
      },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: SETTINGS_BODY_LIMIT, maxDepth: 32, envelope: "settings" });
        return service.write(principal.subject, body);
      },
    }),
  ];
}
