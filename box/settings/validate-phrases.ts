// Implements: `tool_phrases` and `system_tools` of the Settings record, the Tool phrase Limits row
// and System tools, service-spec.md. Refusals are `setting_refused`.
import { LANGUAGES, SETTINGS_LIMITS as L, SYSTEM_TOOLS, type SystemToolName, type ToolPhrases } from "../../shared/wire/settings.ts";
import { DANGEROUS_KEYS, isPlainObject, quote, refused, textProblem, typeName } from "./validate-values.ts";
import { toolNameProblem } from "./validate-tools.ts";

// Terminators that end a sentence wherever they stand (CJK full stops, Devanagari danda).
const HARD_END = /[。！？।॥]/u;
// A Latin terminator run, closing quotes/brackets, space, then the next character.
const SOFT_END = /([.!?]+)["'”’)»]*\s+(\S)/gu;
// Abbreviations that end in a full stop without ending the sentence.
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "sr",
  "jr",
  "sra",
  "srta",
  "mme",
  "mlle",
  "hr",
  "nr",
  "vs",
  "approx",
]);

/**
 * One sentence: no hard terminator before the end, and no `. ! ?` followed by a new sentence
 * start. An ellipsis, a following lowercase word, an initial (`J. Smith`) or a listed
 * abbreviation (`Dr. Lee`) does not start a new sentence.
 */
export function isOneSentence(line: string): boolean {
  const text = line.trim();
  const hard = text.search(HARD_END);
  if (hard >= 0 && text.slice(hard + 1).replace(/[\s"'”’」』)»]/gu, "") !== "") return false;
  for (const m of text.matchAll(SOFT_END)) {
    const run = m[1];
    const next = m[2];
    if (run.length > 1 && /^\.+$/.test(run)) continue; // ellipsis
    if (/\p{Ll}/u.test(next)) continue;
    if (run === ".") {
      const word = /([\p{L}]+)$/u.exec(text.slice(0, m.index))?.[1] ?? "";
      if (word.length === 1 || ABBREVIATIONS.has(word.toLowerCase())) continue;
    }
    return false;
  }
  return true;
}

const FORBIDDEN = /[<>[\]]/;
const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);

/**
 * `tool_phrases`, written whole (an empty object clears). A key may be any well-formed tool name
 * except `skip_turn` (custom, built-in or system, present or not yet defined); a phrase for a
 * tool that is absent or disabled is kept and simply never spoken. Lines are trimmed.
 */
export function checkToolPhrases(value: unknown): ToolPhrases {
  if (!isPlainObject(value)) {
    throw refused(`tool_phrases must be an object of {tool_name: {language: line}}, not ${typeName(value)}.`);
  }
  const entries = Object.entries(value);
  if (entries.length > L.phraseToolsMax) {
    throw refused(`tool_phrases names ${entries.length} tools; at most ${L.phraseToolsMax} are allowed.`);
  }
  const out: ToolPhrases = {};
  for (const [tool, byLanguage] of entries) {
    const nameProblem = DANGEROUS_KEYS.has(tool) ? "is not a tool name" : toolNameProblem(tool);
    if (nameProblem) throw refused(`tool_phrases: the tool name ${quote(tool)} ${nameProblem}.`);
    if (tool === "skip_turn") throw refused("tool_phrases cannot have an entry for skip_turn: it says nothing while it runs.");
    if (!isPlainObject(byLanguage)) {
      throw refused(`tool_phrases.${tool} must be an object of {language: line}, not ${typeName(byLanguage)}.`);
    }
    const lines: Record<string, string> = {};
    for (const [lang, raw] of Object.entries(byLanguage)) {
      if (!LANGUAGE_SET.has(lang)) {
        throw refused(`tool_phrases.${tool}: the language ${quote(lang)} is not one of ${LANGUAGES.join(", ")}.`);
      }
      const at = `tool_phrases.${tool}.${lang}`;
      if (typeof raw !== "string") throw refused(`${at} must be a line of text, not ${typeName(raw)}.`);
      const line = raw.trim();
      if (line === "") throw refused(`${at} is empty; leave the language out instead.`);
      const problem = textProblem(line, { max: L.phraseChars, multiline: false });
      if (problem) throw refused(`${at} ${problem}.`);
      if (FORBIDDEN.test(line)) throw refused(`${at} contains angle or square brackets, which a phrase may not use.`);
      if (!isOneSentence(line)) throw refused(`${at} is more than one sentence; a phrase is a single sentence.`);
      lines[lang] = line;
    }
    out[tool] = lines;
  }
  return out;
}

/** `system_tools`: distinct names among the four; anything else is refused, nothing changed. */
export function checkSystemTools(value: unknown): SystemToolName[] {
  if (!Array.isArray(value)) throw refused(`system_tools must be a list of system tool names, not ${typeName(value)}.`);
  const seen = new Set<string>();
  for (const name of value) {
    if (typeof name !== "string" || !(SYSTEM_TOOLS as readonly string[]).includes(name)) {
      throw refused(`system_tools: ${quote(name)} is not a system tool; the system tools are ${SYSTEM_TOOLS.join(", ")}.`);
    }
    if (seen.has(name)) throw refused(`system_tools names ${name} twice; each system tool may appear once.`);
    seen.add(name);
  }
  return [...value] as SystemToolName[];
}
