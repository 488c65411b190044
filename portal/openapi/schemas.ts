// Implements: the portal's answer and request shapes that its OpenAPI document names but no feature
// declares as TypeBox (error envelopes, small `{ok}` answers, bodies the services parse by hand).
// Where a TypeScript type of the answer exists, a compile-time check below keeps the two equal.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { SessionCredentialAnswer } from "../../shared/wire/credential.ts";
import { ATTESTED_SOURCE_KINDS } from "../../shared/avatar-tables/schema.ts";
import type { AvatarAssets } from "../assets/service.ts";

/** `{error: {code, message}}`: every `/auth/*` refusal (spec Errors: Envelopes). */
export const NestedError = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) }, { title: "Nested error" });
/** `{code, message}`: identity failures (401). */
export const UnwrappedError = Type.Object({ code: Type.String(), message: Type.String() }, { title: "Unwrapped error" });

export const OkAnswer = Type.Object({ ok: Type.Literal(true) });

export const LinkAnswer = Type.Object({ ok: Type.Literal(true), message: Type.String() });

export const ExchangeAnswer = Type.Object({ ok: Type.Literal(true), email: Type.String(), expires_at: Type.Integer() });

export const CreateKeyBody = Type.Object({ name: Type.String({ minLength: 1 }) });

export const SessionCredentialSchema = Type.Object({
  credential: Type.Object({
    secret: Type.String(),
    expires_at: Type.Integer(),
    expires_in: Type.Integer(),
    scope: Type.Literal("full"),
  }),
});

export const AvatarAssetsSchema = Type.Object({
  avatar_id: Type.String(),
  assets: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal("image"), Type.Literal("video")]),
      filename: Type.String(),
      size_bytes: Type.Integer(),
      updated_at: Type.Integer(),
      url: Type.String({ description: "Short-lived signed URL" }),
    }),
  ),
  expires_in: Type.Integer(),
});

export const VisibilityBody = Type.Object({ visibility: Type.Union([Type.Literal("public"), Type.Literal("private")]) });

export const UploadConsentBody = Type.Object({
  sha256: Type.String({ pattern: "^[0-9a-fA-F]{64}$" }),
  source_kind: Type.Optional(
    Type.Union(
      ATTESTED_SOURCE_KINDS.map((k) => Type.Literal(k)),
      { default: "image" },
    ),
  ),
});

export const PublicationConsentBody = Type.Object({ terms_version: Type.Optional(Type.String()) });

export const PortraitCreateBody = Type.Object({ description: Type.String({ minLength: 1, maxLength: 1000 }) });
export const PortraitRegenerateBody = Type.Object({
  description: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()])),
});
export const PortraitApproveBody = Type.Object({ sha256: Type.String({ pattern: "^[0-9a-fA-F]{64}$" }) });

/** `{name: schema}` in one object: `Type.Object` with every field required. */
export const wrap = (name: string, schema: TSchema) => Type.Object({ [name]: schema });

// Compile-time: each schema above describes exactly the type the route answers.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCredential: Same<Static<typeof SessionCredentialSchema>, SessionCredentialAnswer> = true;
const sameAssets: Same<Static<typeof AvatarAssetsSchema>, AvatarAssets> = true;
void sameCredential;
void sameAssets;
