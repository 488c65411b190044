// Implements: POST /api/upload (full) and GET /api/audios (any), Box: avatars and clips.
import { route, type RouteDef } from "../http/route.ts";
import { readUploadForm } from "../http/multipart.ts";
import { AudioListSchema, FlatError, UploadAnswerSchema } from "../../shared/wire/uploads.ts";
import { AudioUploads, type AudioUploadsOptions } from "./service.ts";

export function uploadRoutes(uploads: AudioUploads): RouteDef[] {
  return [
    route({
      method: "POST",
      path: "/api/upload",
      summary: "Upload an audio file (WAV, MP3, OGG, WEBM) for POST /offer: multipart part `file`, optional `name`, `transcript`, `tone`",
      envelope: "flat",
      responses: { 200: UploadAnswerSchema, 400: FlatError, 409: FlatError, 413: FlatError, 503: FlatError },
      handler: async ({ request, principal }) => {
        const form = await readUploadForm(request, {
          limitBytes: uploads.limits.maxBytes,
          filePart: "file",
          textParts: ["name", "transcript", "tone"],
        });
        return uploads.upload({ filename: form.file.filename, bytes: form.file.bytes, ...form.fields }, principal.subject);
      },
    }),
    route({
      method: "GET",
      path: "/api/audios",
      summary: "Every audio asset the caller can lip-sync with /offer: the default clip, its own uploads and replies",
      envelope: "flat",
      responses: { 200: AudioListSchema },
      handler: ({ principal }) => ({ audios: uploads.list(principal.subject) }),
    }),
  ];
}

/** The composition root's one call: the service over the box's audio store and recogniser. */
export function audioUploadRoutes(options: AudioUploadsOptions): RouteDef[] {
  return uploadRoutes(new AudioUploads(options));
}
