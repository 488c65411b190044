// Implements: POST /v1/streaming.create_token (errors unwrapped `{code, message}`).
import { Type } from "@sinclair/typebox";
import { SessionTokenAnswer, SessionTokenBody } from "../../shared/wire/session-token.ts";
import { route, type RouteDef } from "../http/route.ts";
import { readJsonObject } from "../http/json-body.ts";
import type { KeyTable } from "../auth/key-table.ts";
import { mintSessionToken, ttlFrom } from "./service.ts";

const Unwrapped = Type.Object({ code: Type.String(), message: Type.String() });

export function tokenRoutes(keyTable: KeyTable | null): RouteDef[] {
  return [
    route({
      method: "POST",
      path: "/v1/streaming.create_token",
      summary: "Mint a stream-only session token (scope tts)",
      envelope: "unwrapped",
      body: SessionTokenBody,
      responses: {
        200: SessionTokenAnswer,
        400: Unwrapped,
        401: Unwrapped,
        503: Unwrapped,
      },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { emptyAsObject: true, limitBytes: 16 * 1024, envelope: "unwrapped" });
        return { data: await mintSessionToken(keyTable, principal, ttlFrom(body)) };
      },
    }),
  ];
}
