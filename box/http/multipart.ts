// Reads a multipart/form-data request body with a byte limit (413 before anything is kept past
// it), then hands it to the platform's form-data parser and checks the part names.
import { ApiError } from "../../shared/errors/api-error.ts";
import { readBodyCapped } from "./capped-body.ts";

export interface UploadForm {
  file: { filename: string; bytes: Uint8Array };
  fields: Record<string, string>;
}

const tooLarge = (limit: number) => new ApiError(413, "body_too_large", `The upload is over ${Math.round(limit / (1024 * 1024))} MB.`);

/**
 * The parts of an upload: exactly one file part `filePart`; `textParts` at most once each, as text;
 * any other part name, a second part of the same name, or a missing file is a 400 naming it.
 */
export async function readUploadForm(
  request: Request,
  o: { limitBytes: number; filePart: string; textParts: readonly string[] },
): Promise<UploadForm> {
  const type = request.headers.get("content-type") ?? "";
  const hint = `Send multipart/form-data with the audio in a part named "${o.filePart}".`;
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new ApiError(400, "invalid_body", `The body is not multipart/form-data. ${hint}`);
  const body = await readBodyCapped(request, o.limitBytes, () => tooLarge(o.limitBytes));
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError(400, "invalid_body", `The multipart body could not be read. ${hint}`);
  }
  const allowed = [o.filePart, ...o.textParts];
  const seen = new Set<string>();
  let file: UploadForm["file"] | null = null;
  const fields: Record<string, string> = {};
  for (const [name, entry] of form.entries()) {
    const value = entry as string | (Blob & { name?: string });
    if (!allowed.includes(name)) {
      throw new ApiError(
        400,
        "unknown_part",
        `Unknown part "${name.slice(0, 40)}": the parts are ${allowed.map((p) => `"${p}"`).join(", ")}. ${hint}`,
      );
    }
    if (seen.has(name)) throw new ApiError(400, "duplicate_part", `The part "${name}" was sent more than once.`);
    seen.add(name);
    if (name === o.filePart) {
      if (typeof value === "string")
        throw new ApiError(400, "missing_file", `The part "${o.filePart}" must be a file (with a filename), not a text field.`);
      file = { filename: value.name ?? "", bytes: new Uint8Array(await value.arrayBuffer()) };
    } else {
      fields[name] = typeof value === "string" ? value : await value.text();
    }
  }
  if (!file) throw new ApiError(400, "missing_file", `No part named "${o.filePart}". ${hint}`);
  return { file, fields };
}
