// Implements: Custom tool definition (inside `tools`) and the tool Limits rows, service-spec.md.
// Every refusal is `setting_refused` (the spec's "bad tools"); nothing is kept from a refused list.
import {
  PARAMETER_TYPES,
  RESERVED_TOOL_NAMES,
  RESPONSE_TO_USER,
  SETTINGS_LIMITS as L,
  TOOL_MODES,
  type CustomTool,
  type ParameterSchema,
  type ToolMode,
} from "../../shared/wire/settings.ts";
import { DANGEROUS_KEYS, isPlainObject, quote, refused, textProblem, typeName } from "./validate-values.ts";

export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/** Parameter names: identifier-like, so they are safe as object keys in every consumer. */
export const PARAMETER_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const TOOL_FIELDS = new Set(["name", "description", "parameters", "mode", "timeout_seconds", "enabled"]);
const KEYWORDS = new Set(["type", "description", "properties", "required", "enum", "items"]);
const CONTAINERS = new Set(["object", "array"]);

/** Why a tool name is malformed (length, characters), or null. Reserved names are checked apart. */
export function toolNameProblem(name: unknown): string | null {
  if (typeof name !== "string") return `must be a string, not ${typeName(name)}`;
  if (name.length < L.toolNameMin || name.length > L.toolNameMax) {
    return `must be ${L.toolNameMin} to ${L.toolNameMax} characters long`;
  }
  if (!TOOL_NAME_PATTERN.test(name)) return "must start with a lowercase letter and use only lowercase letters, digits and underscores";
  return null;
}

interface Walk {
  where: string;
  properties: number;
}

function enumFits(type: string, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      return false;
  }
}

/** One schema node; `level` counts the objects and arrays from the root (the root is 1). */
function checkNode(node: unknown, path: string, level: number, walk: Walk): ParameterSchema {
  const at = path === "" ? "parameters" : `parameters${path}`;
  const fail = (why: string) => refused(`${walk.where}: ${at} ${why}.`);
  if (!isPlainObject(node)) throw fail(`must be a JSON schema object, not ${typeName(node)}`);
  for (const k of Object.keys(node)) {
    if (!KEYWORDS.has(k))
      throw fail(`uses the keyword ${quote(k)}; only type, description, properties, required, enum and items are allowed`);
  }
  const type = node.type;
  if (typeof type !== "string" || !(PARAMETER_TYPES as readonly string[]).includes(type)) {
    throw fail(`needs a type, one of ${PARAMETER_TYPES.join(", ")}`);
  }
  if (CONTAINERS.has(type) && level > L.toolParametersLevels) {
    throw fail(`nests deeper than ${L.toolParametersLevels} levels (objects and arrays each count)`);
  }
  const out: Record<string, unknown> = { type };
  if (node.description !== undefined) {
    if (typeof node.description !== "string") throw fail("has a description that is not a string");
    const problem = textProblem(node.description, { max: L.parameterDescriptionChars, multiline: true });
    if (problem) throw fail(`has a description that ${problem}`);
    out.description = node.description;
  }
  if (node.properties !== undefined || node.required !== undefined) {
    if (type !== "object") throw fail("uses properties or required, which belong only to type object");
  }
  if (node.items !== undefined && type !== "array") throw fail("uses items, which belongs only to type array");
  if (node.enum !== undefined) {
    if (CONTAINERS.has(type)) throw fail("uses enum, which belongs only to a scalar type");
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0 || values.length > L.enumValuesMax) {
      throw fail(`has an enum that is not a list of 1 to ${L.enumValuesMax} values`);
    }
    if (!values.every((v) => enumFits(type, v))) throw fail(`has an enum value that is not of type ${type}`);
    out.enum = [...values];
  }
  if (node.properties !== undefined) {
    if (!isPlainObject(node.properties)) throw fail("has properties that are not an object");
    const props: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node.properties)) {
      if (DANGEROUS_KEYS.has(name) || name.length > L.parameterNameChars || !PARAMETER_NAME_PATTERN.test(name)) {
        throw fail(
          `has the property name ${quote(name)}; names are letters, digits and underscores, not starting with a digit, at most ${L.parameterNameChars} long, and not __proto__, constructor or prototype`,
        );
      }
      if (name === RESPONSE_TO_USER) throw fail(`defines ${RESPONSE_TO_USER}, which the platform adds itself`);
      if (++walk.properties > L.toolParametersProperties) {
        throw refused(`${walk.where}: parameters define more than ${L.toolParametersProperties} properties in total.`);
      }
      const childLevel = CONTAINERS.has(String((child as { type?: unknown })?.type)) ? level + 1 : level;
      props[name] = checkNode(child, `${path}.properties.${name}`, childLevel, walk);
    }
    out.properties = props;
  }
  if (node.required !== undefined) {
    const req = node.required;
    const declared = (out.properties ?? {}) as Record<string, unknown>;
    if (!Array.isArray(req) || !req.every((r) => typeof r === "string")) throw fail("has required that is not a list of names");
    if (new Set(req).size !== req.length) throw fail("names a property twice in required");
    const missing = req.find((r) => !Object.hasOwn(declared, r));
    if (missing !== undefined) throw fail(`requires ${quote(missing)}, which is not among its properties`);
    out.required = [...req];
  }
  if (node.items !== undefined) {
    const childLevel = CONTAINERS.has(String((node.items as { type?: unknown })?.type)) ? level + 1 : level;
    out.items = checkNode(node.items, `${path}.items`, childLevel, walk);
  }
  return out as ParameterSchema;
}

/** A tool's `parameters`: absent means no parameters; returns a fresh, normalised copy. */
export function checkParameters(value: unknown, where: string): ParameterSchema {
  if (value === undefined) return { type: "object", properties: {} };
  if (!isPlainObject(value) || value.type !== "object") {
    throw refused(`${where}: parameters must be a JSON schema of type object.`);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > L.toolParametersBytes) {
    throw refused(`${where}: parameters are ${bytes} bytes of JSON; at most ${L.toolParametersBytes} are allowed.`);
  }
  return checkNode(value, "", 1, { where, properties: 0 });
}

function checkTool(raw: unknown, i: number): CustomTool {
  let where = `tools[${i}]`;
  if (!isPlainObject(raw)) throw refused(`${where} must be an object, not ${typeName(raw)}.`);
  const unknown = Object.keys(raw).find((k) => !TOOL_FIELDS.has(k));
  if (unknown !== undefined) {
    throw refused(
      `${where} has the unknown field ${quote(unknown)}; a tool has name, description, parameters, mode, timeout_seconds and enabled.`,
    );
  }
  const nameProblem = toolNameProblem(raw.name);
  if (nameProblem) throw refused(`${where}: the tool name ${nameProblem}.`);
  const name = raw.name as string;
  where = `tools[${i}] (${name})`;
  if (RESERVED_TOOL_NAMES.includes(name)) throw refused(`${where}: the name ${name} is reserved for a built-in or system tool.`);

  const d = raw.description;
  if (typeof d !== "string" || d.trim() === "") throw refused(`${where}: a description is required.`);
  const dProblem = textProblem(d, { max: L.toolDescriptionChars, multiline: true });
  if (dProblem) throw refused(`${where}: the description ${dProblem}.`);

  if (typeof raw.mode !== "string" || !(TOOL_MODES as readonly string[]).includes(raw.mode)) {
    throw refused(`${where}: mode is required and must be await_result or fire_and_forget.`);
  }
  let timeout: number = L.timeoutDefault;
  if (raw.timeout_seconds !== undefined) {
    const t = raw.timeout_seconds;
    if (typeof t !== "number" || !Number.isInteger(t) || t < L.timeoutMin || t > L.timeoutMax) {
      throw refused(`${where}: timeout_seconds must be a whole number from ${L.timeoutMin} to ${L.timeoutMax}.`);
    }
    timeout = t;
  }
  let enabled = true;
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== "boolean") throw refused(`${where}: enabled must be true or false.`);
    enabled = raw.enabled;
  }
  return {
    name,
    description: d,
    parameters: checkParameters(raw.parameters, where),
    mode: raw.mode as ToolMode,
    timeout_seconds: timeout,
    enabled,
  };
}

/** The whole `tools` list as written (an empty list clears); throws `setting_refused`. */
export function checkTools(value: unknown): CustomTool[] {
  if (!Array.isArray(value)) throw refused(`tools must be a list of tool definitions, not ${typeName(value)}.`);
  if (value.length > L.toolsMax) throw refused(`tools holds ${value.length} definitions; at most ${L.toolsMax} are allowed.`);
  const tools = value.map((raw, i) => checkTool(raw, i));
  const names = new Set<string>();
  tools.forEach((t, i) => {
    if (names.has(t.name)) throw refused(`tools[${i}] (${t.name}): the name ${t.name} is used twice; tool names must be unique.`);
    names.add(t.name);
  });
  return tools;
}
