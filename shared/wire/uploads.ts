// Implements: the rows of POST /api/upload and GET /api/audios as TypeBox models (the box's
// OpenAPI document and the client library's types both read them).
import { Type, type Static } from "@sinclair/typebox";
import { TONES } from "./tones.ts";

export const FlatError = Type.Object({ error: Type.String(), code: Type.String() });

const fields = {
  kind: Type.Union([Type.Literal("default"), Type.Literal("reply"), Type.Literal("upload")]),
  duration_s: Type.Number(),
  sample_rate: Type.Integer(),
  bytes: Type.Integer({ description: "size of the stored WAV" }),
  created_at: Type.Integer({ description: "epoch seconds" }),
  tone: Type.Union([...TONES.map((t) => Type.Literal(t)), Type.Null()], { description: "null only while the recogniser is still at work" }),
  transcript: Type.String(),
  transcript_source: Type.Union(["speech", "uploader", "recogniser", "pending", "none"].map((s) => Type.Literal(s))),
};

export const AudioRowSchema = Type.Object({ name: Type.String(), ...fields });

export const AudioListSchema = Type.Object({ audios: Type.Array(AudioRowSchema) });

export const UploadAnswerSchema = Type.Object({
  ok: Type.Literal(true),
  audio: Type.String({ description: "the name to pass as `audio` to POST /offer" }),
  ...fields,
  replaced: Type.Boolean({ description: "an earlier upload of yours under this name was overwritten" }),
});
export type AudioRow = Static<typeof AudioRowSchema>;
export type AudioList = Static<typeof AudioListSchema>;
export type AudioUploadAnswer = Static<typeof UploadAnswerSchema>;
