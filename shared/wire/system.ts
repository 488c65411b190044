// Implements: the answers of GET /, GET /health, GET /api/stats and the `{ok: true}` of
// POST /disconnect and POST /api/interrupt (Box: signalling and engine), as TypeBox schemas: the
// box's routes validate and document with them, the client library takes their types.
import { type Static, Type } from "@sinclair/typebox";

export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;

export const RootInfo = Type.Object({ service: Type.String(), status: Type.Literal("ok"), openapi: Type.String() });
export type RootInfo = Static<typeof RootInfo>;

export const Health = Type.Object({
  status: Type.Literal("ok"),
  avatar: Type.Union([Type.String(), Type.Null()]),
  speaking_face: Type.Union([Type.String(), Type.Null()]),
});
export type Health = Static<typeof Health>;

export const Stats = Type.Object({
  shutdown_minutes: Type.Union([Type.Integer(), Type.Null()]),
  cpu_percent: Type.Number(),
  cpu_cores: Type.Integer(),
  gpus: Type.Array(Type.Object({ name: Type.String(), memory_used_mb: Type.Number(), utilization: Type.Number() })),
});
export type Stats = Static<typeof Stats>;
