// How to give the box a language model, in words a newcomer can act on: the literal command for
// the studio started with `npm start` (its local box reads BOX_OPENAI_BASE_URL), and where on this
// page to pick the model afterwards. Said by the Chat mode's note, a refused Chat send, the persona
// panel's model fields and the readiness notice.
import { h } from "../dom.ts";

export const MODEL_COMMAND = "BOX_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 npm start";

/** One sentence (as nodes, the command in <code>): what to run and where to pick the model. */
export function setModelWords(): Node[] {
  const text = (t: string) => document.createTextNode(t);
  return [
    text("To give it one when you run the studio with npm start, stop it and start it again as "),
    h("code", {}, MODEL_COMMAND),
    text(" (any OpenAI-compatible server, here a local Ollama), then pick the model under Persona on this page."),
  ];
}

/** Chat cannot answer: the box has no language model. */
export const NO_MODEL = "Chat needs a language model, and this box has none.";
