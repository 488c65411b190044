// Implements: Tool frames — the viewer label sent as `tool {name, label}` while a built-in runs.

export const BUILTIN_NAMES = ["calculate", "current_time", "fetch_url", "weather", "lookup_wikipedia"] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/** Human-worded labels (spec: calculate → "working out the answer"). */
export const BUILTIN_LABELS: Readonly<Record<BuiltinName, string>> = {
  calculate: "Working out the answer",
  current_time: "Checking the time",
  fetch_url: "Reading a web page",
  weather: "Checking the weather",
  lookup_wikipedia: "Looking it up on Wikipedia",
};

export function isBuiltinName(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name);
}
