// Implements: Built-in tools (run on the server, only where switched on); Tool frames (`tool {name, label}`).

/** What the turn engine hands every built-in run. */
export interface ToolContext {
  /** IANA zone from `client_context`, else the deployment zone (current_time re-checks it). */
  timeZone: string;
  /** Aborted when the turn is cancelled or the session closes. */
  signal: AbortSignal;
}

/** JSON schema subset allowed for tool parameters (spec: type, description, properties, required, enum, items). */
export interface ParamSchema {
  type: "object" | "string" | "number" | "integer" | "boolean" | "array";
  description?: string;
  properties?: Record<string, ParamSchema>;
  required?: string[];
  enum?: (string | number)[];
  items?: ParamSchema;
}

export interface BuiltinTool {
  /** One of the reserved built-in names. */
  name: string;
  /** Viewer label sent on the `tool` frame while the tool runs. */
  label: string;
  /** Told to the model. */
  description: string;
  /** JSON schema of type object. */
  parameters: ParamSchema & { type: "object" };
  /** Text result for the model. Throws ToolArgsError for bad arguments, ToolError for readable failures. */
  run(args: unknown, ctx: ToolContext): Promise<string>;
}

/** The model called the tool with arguments that do not fit: maps to reason `invalid_args`. */
export class ToolArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolArgsError";
  }
}

/** A readable failure whose message can go to the model as is (refusal, not found, upstream down). */
export class ToolError extends Error {
  constructor(
    message: string,
    /** Operator-side detail (e.g. the refused address); never sent to the model. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}
