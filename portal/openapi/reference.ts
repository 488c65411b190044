// Implements: the reference page's reading of an OpenAPI 3.1 document: operations grouped by area,
// and each JSON Schema flattened into field rows (`keys[].revoked_at  integer or null  required`)
// that a person can scan, instead of nested JSON.

export interface FieldRow {
  /** Dotted path; `[]` marks an array's items (`keys[].id`); empty for a whole non-object body. */
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

export interface ReferenceAnswer {
  status: string;
  description: string;
  contentType: string | null;
  rows: FieldRow[];
  /** Refusal codes (`x-codes` in the portal's document). */
  codes: string[];
}

export interface ReferenceOperation {
  method: string;
  path: string;
  summary: string;
  /** Who may call: the portal's `x-auth`, the box's `x-policy`. */
  access: string;
  parameters: { name: string; in: string; required: boolean; type: string }[];
  body: { required: boolean; rows: FieldRow[] } | null;
  answers: ReferenceAnswer[];
  /** Anchor id on the page. */
  anchor: string;
}

export interface ReferenceGroup {
  name: string;
  operations: ReferenceOperation[];
}

type Schema = Record<string, unknown>;
const MAX_DEPTH = 6;
const METHODS = ["get", "head", "post", "put", "patch", "delete"];

/**
 * Where an untagged operation (the box's) belongs, in the order the page lists the areas. The box's
 * document has no tags; these areas are the page's reading of its paths.
 */
const AREAS: [string, RegExp][] = [
  ["System", /^\/(health|openapi\.json|api\/stats|api\/interrupt)?$/],
  ["Tokens", /^\/v1\/streaming\./],
  ["Live session", /^\/(connect|offer|disconnect|api\/talk|api\/session\/ws)$/],
  ["Chat", /^\/api\/chat(\/|$)/],
  ["Settings", /^\/api\/settings$/],
  ["Conversations", /^\/conversations(\/|$)/],
  ["Avatars and clips", /^\/(api\/avatars?(\/|$)|api\/videos$|v1\/photo_avatar\.)/],
  ["Voices and audio", /^\/api\/(voices?(\/|$)|upload$|audios$)/],
];

export function areaOf(path: string): string {
  const known = AREAS.find(([, re]) => re.test(path));
  if (known) return known[0];
  const parts = path.split("/").filter(Boolean);
  const first = (parts[0] === "api" || parts[0] === "v1" ? parts[1] : parts[0]) ?? "other";
  const word = first.replace(/[{}]/g, "").split(/[._-]/)[0] || "other";
  return word[0].toUpperCase() + word.slice(1);
}

const areaRank = (name: string) => {
  const i = AREAS.findIndex(([a]) => a === name);
  return i === -1 ? AREAS.length : i;
};

function resolve(doc: Schema, s: Schema): Schema | null {
  const ref = s.$ref;
  if (typeof ref !== "string") return s;
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  const target = m ? ((doc.components as Schema | undefined)?.schemas as Schema | undefined)?.[m[1]] : undefined;
  return (target as Schema | undefined) ?? null;
}

/** A one-line type: `string`, `integer or null`, `"public" | "private"`, `array of string`. */
export function typeOf(doc: Schema, raw: Schema, depth = 0): string {
  const s = resolve(doc, raw);
  if (!s) return "object (recursive)";
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(alts)) {
    const literal = (a: Schema) => "const" in (resolve(doc, a) ?? {});
    return alts.map((a) => typeOf(doc, a, depth + 1)).join(alts.every(literal) ? " | " : " or ");
  }
  if (Array.isArray(s.allOf)) return "object";
  if (s.type === "array") return s.items && depth < MAX_DEPTH ? `array of ${typeOf(doc, s.items as Schema, depth + 1)}` : "array";
  if (Array.isArray(s.type)) return s.type.join(" or ");
  if (typeof s.type === "string") return s.type;
  return "any";
}

function notesOf(s: Schema): string {
  const out: string[] = [];
  if (typeof s.description === "string") out.push(s.description);
  if (typeof s.pattern === "string") out.push(`pattern ${s.pattern}`);
  for (const [k, label] of [
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minimum", "min"],
    ["maximum", "max"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
  ] as const) {
    if (typeof s[k] === "number") out.push(`${label} ${s[k]}`);
  }
  if ("default" in s) out.push(`default ${JSON.stringify(s.default)}`);
  return out.join("; ");
}

/** The object's own properties, an intersection's merged, or null when it is not an object. */
function propertiesOf(doc: Schema, s: Schema): { props: Record<string, Schema>; required: string[] } | null {
  if (Array.isArray(s.allOf)) {
    const props: Record<string, Schema> = {};
    const required: string[] = [];
    for (const part of s.allOf as Schema[]) {
      const r = resolve(doc, part);
      const p = r ? propertiesOf(doc, r) : null;
      if (p) Object.assign(props, p.props), required.push(...p.required);
    }
    return { props, required };
  }
  if (s.type === "object" && s.properties && typeof s.properties === "object") {
    return { props: s.properties as Record<string, Schema>, required: (s.required as string[] | undefined) ?? [] };
  }
  return null;
}

/** Every field of a schema, nested objects and arrays of objects spelled out. */
export function fieldRows(doc: Schema, raw: Schema | undefined, prefix = "", depth = 0): FieldRow[] {
  if (!raw) return [];
  const s = resolve(doc, raw);
  if (!s) return [{ name: prefix, type: "object (recursive)", required: true, notes: "" }];
  const obj = propertiesOf(doc, s);
  if (!obj || depth >= MAX_DEPTH) return prefix === "" ? [{ name: "", type: typeOf(doc, s), required: true, notes: notesOf(s) }] : [];
  const rows: FieldRow[] = [];
  for (const [name, child] of Object.entries(obj.props)) {
    const full = prefix ? `${prefix}.${name}` : name;
    const c = resolve(doc, child) ?? {};
    rows.push({ name: full, type: typeOf(doc, child), required: obj.required.includes(name), notes: notesOf(c) });
    if (propertiesOf(doc, c)) rows.push(...fieldRows(doc, c, full, depth + 1));
    else if (c.type === "array" && c.items) {
      const items = resolve(doc, c.items as Schema);
      if (items && propertiesOf(doc, items)) rows.push(...fieldRows(doc, items, `${full}[]`, depth + 1));
    }
  }
  return rows;
}

function jsonSchemaOf(content: unknown): { contentType: string | null; schema: Schema | undefined } {
  const entries = Object.entries((content as Record<string, { schema?: Schema }> | undefined) ?? {});
  if (entries.length === 0) return { contentType: null, schema: undefined };
  const [contentType, media] = entries[0];
  return { contentType, schema: media?.schema };
}

/** The document's operations, grouped by tag (the portal's) or by path area (the box's), in document order. */
export function referenceGroups(doc: Schema, plane: string): ReferenceGroup[] {
  const groups = new Map<string, ReferenceOperation[]>();
  const tagged = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths as Record<string, Record<string, Schema>> | undefined) ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : areaOf(path);
      if (Array.isArray(op.tags)) tagged.add(tag);
      const parameters = ((op.parameters as Schema[] | undefined) ?? []).map((p) => ({
        name: String(p.name),
        in: String(p.in),
        required: p.required === true,
        type: p.schema ? typeOf(doc, p.schema as Schema) : "string",
      }));
      const reqBody = op.requestBody as Schema | undefined;
      const body = reqBody ? { required: reqBody.required === true, rows: fieldRows(doc, jsonSchemaOf(reqBody.content).schema) } : null;
      const answers = Object.entries((op.responses as Record<string, Schema> | undefined) ?? {}).map(([status, r]) => {
        const { contentType, schema } = jsonSchemaOf(r.content);
        return {
          status,
          description: typeof r.description === "string" ? r.description : "",
          contentType,
          rows: fieldRows(doc, schema),
          codes: Array.isArray(r["x-codes"]) ? (r["x-codes"] as string[]) : [],
        };
      });
      answers.sort((a, b) => a.status.localeCompare(b.status));
      const access = typeof op["x-auth"] === "string" ? op["x-auth"] : typeof op["x-policy"] === "string" ? op["x-policy"] : "";
      const anchor = `${plane}-${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-").replace(/-+$/, "");
      const list = groups.get(tag) ?? [];
      list.push({
        method: method.toUpperCase(),
        path,
        summary: typeof op.summary === "string" ? op.summary : "",
        access,
        parameters,
        body,
        answers,
        anchor,
      });
      groups.set(tag, list);
    }
  }
  const out = [...groups].map(([name, operations]) => ({ name, operations }));
  // Tagged documents (the portal's) keep their own order; areas follow the list above.
  if (!out.some((g) => g.operations.length && tagged.has(g.name))) out.sort((a, b) => areaRank(a.name) - areaRank(b.name));
  return out;
}
