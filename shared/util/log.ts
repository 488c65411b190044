// Implements: structured logging for the box and the portal (issue 26 item 6): one JSON line per
// event on stderr, `{"level","time","msg",...fields}`, with levels (debug < info < warn < error).
// The level is set once at boot from the entry's env (BOX_LOG_LEVEL, PORTAL_LOG_LEVEL; default
// info). An Error anywhere in the fields is written as its stack (or message), never as `{}`.
// Hand-built `console.error(JSON.stringify(...))` lines are replaced by this module.

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A line at a level chosen at run time (e.g. a callback handed a level name). */
  at(level: LogLevel, msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (e.g. `{ part: "voices" }`). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  /** Lines below this level are dropped (default: the process level, see setLogLevel). */
  level?: LogLevel;
  /** Where a finished line goes (default: stderr). */
  write?: (line: string) => void;
  /** Fields on every line. */
  base?: LogFields;
  now?: () => Date;
}

let processLevel: LogLevel = "info";

/** Parses a level name (case-insensitive); throws a readable error for anything else. */
export function parseLogLevel(raw: string | undefined, name: string): LogLevel {
  const v = (raw ?? "").trim().toLowerCase();
  if (!v) return "info";
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new Error(`${name} must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(raw)}`);
}

/** The level of loggers made without one (the default `log` among them). */
export function setLogLevel(level: LogLevel): void {
  processLevel = level;
}

function plain(value: unknown): unknown {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  return value;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => console.error(line));
  const now = options.now ?? (() => new Date());
  const base = options.base ?? {};
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    const floor = options.level ?? processLevel;
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(floor)) return;
    const line: LogFields = { level, time: now().toISOString(), msg };
    for (const [k, v] of Object.entries({ ...base, ...fields })) if (v !== undefined) line[k] = plain(v);
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch {
      text = JSON.stringify({ level, time: line.time, msg, note: "fields not serialisable" });
    }
    write(text);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    at: (level, msg, fields) => emit((LOG_LEVELS as readonly string[]).includes(level) ? level : "info", msg, fields),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
  };
}

/** The process's logger. */
export const log: Logger = createLogger();
