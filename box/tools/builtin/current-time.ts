// Implements: Built-in tools — `current_time` (in the zone from `client_context`, else the deployment
// zone, never silently UTC): every answer names the zone it used.
import { BUILTIN_LABELS } from "./labels.ts";
import { argsObject, optionalString } from "./args.ts";
import { ToolArgsError, type BuiltinTool } from "./types.ts";

export interface CurrentTimeOptions {
  /** IANA zone of the deployment; used when the caller's zone is missing or unknown. */
  deploymentTimeZone: string;
  /** Injectable clock for tests. */
  now?: () => Date;
}

/** The zone's name with Intl's capitalisation, or undefined when Intl does not know it. */
export function canonicalTimeZone(zone: string | undefined): string | undefined {
  const given = zone?.trim();
  if (!given) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: given }).resolvedOptions().timeZone;
    // ICU resolves some current names to legacy ones (Asia/Kolkata → Asia/Calcutta): keep the name given.
    return resolved.toLowerCase() === given.toLowerCase() ? resolved : given;
  } catch {
    return undefined;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(date: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/** "+11:00" style offset of the zone at that instant, from the wall clock (no reliance on tz name styles). */
function utcOffset(date: Date, wall: WallClock): string {
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const minutes = Math.round((wallAsUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
}

/** A sentence naming date, time, zone and offset, plus the ISO 8601 form. */
export function describeTime(date: Date, timeZone: string): string {
  const wall = wallClock(date, timeZone);
  const offset = utcOffset(date, wall);
  const spoken = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
  const iso =
    `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T` + `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${offset}`;
  return `It is ${spoken} in the time zone ${timeZone} (UTC${offset}). ISO 8601: ${iso}.`;
}

export function createCurrentTime(options: CurrentTimeOptions): BuiltinTool {
  const deploymentZone = canonicalTimeZone(options.deploymentTimeZone);
  if (!deploymentZone) throw new Error(`current_time: deployment time zone "${options.deploymentTimeZone}" is not an IANA zone`);
  const now = options.now ?? (() => new Date());
  return {
    name: "current_time",
    label: BUILTIN_LABELS.current_time,
    description:
      "Get the current date and time. Without arguments it answers for the person's own time zone; " +
      "give time_zone to ask about another place.",
    parameters: {
      type: "object",
      properties: {
        time_zone: {
          type: "string",
          description: 'Optional IANA time zone for another place, e.g. "Asia/Tokyo" or "America/New_York".',
        },
      },
    },
    async run(args, ctx) {
      const requested = optionalString(argsObject(args ?? {}, "current_time"), "time_zone", 64);
      if (requested !== undefined) {
        const zone = canonicalTimeZone(requested);
        if (!zone) throw new ToolArgsError(`Unknown time zone "${requested}"; use an IANA name such as "Europe/Paris".`);
        return describeTime(now(), zone);
      }
      const callerZone = canonicalTimeZone(ctx.timeZone);
      if (callerZone) return describeTime(now(), callerZone);
      const note = ctx.timeZone?.trim()
        ? ` (The person's time zone "${ctx.timeZone.trim().slice(0, 64)}" is not recognised, so the deployment's zone is used.)`
        : "";
      return describeTime(now(), deploymentZone) + note;
    },
  };
}
