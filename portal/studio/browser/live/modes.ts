// The typed box's mode (Chat: the model answers; Talk: said as written): the person's choice is
// remembered in this browser across reloads, and used whenever it is possible. With no language
// model on the box, Chat is not possible: Talk is taken instead (the remembered choice is kept for
// when a model is set) and a note by the modes says why, with what to do, before anyone types.
import { byId, h } from "../dom.ts";
import { NO_MODEL, setModelWords } from "./model-words.ts";

export type TurnMode = "chat" | "talk";

const MODE_KEY = "studio.mode";

function storedMode(): TurnMode | null {
  try {
    const v = localStorage.getItem(MODE_KEY);
    return v === "chat" || v === "talk" ? v : null;
  } catch {
    return null;
  }
}

export class ModeChoice {
  private readonly form = byId<HTMLFormElement>("turn-form");
  private readonly note = byId("chat-unavailable");
  /** The person's own choice (remembered), or the page's default. */
  private wanted: TurnMode = storedMode() ?? "chat";
  private chatPossible = true;

  constructor() {
    this.form.addEventListener("change", (e) => {
      const input = e.target as HTMLInputElement;
      if (input.name !== "mode") return;
      this.wanted = input.value as TurnMode;
      try {
        localStorage.setItem(MODE_KEY, this.wanted);
      } catch {
        // A browser that keeps nothing: the choice lasts until the page reloads.
      }
    });
    this.apply();
  }

  get(): TurnMode {
    return (this.form.querySelector<HTMLInputElement>("input[name=mode]:checked")?.value as TurnMode) ?? "chat";
  }

  /** The box has a language model (or not): Chat is offered, or Talk is taken and the note says why. */
  setChatPossible(possible: boolean): void {
    if (possible === this.chatPossible) return;
    this.chatPossible = possible;
    this.apply();
  }

  /** Switches to Talk as if the person had picked it (remembered). */
  pickTalk(): void {
    const talk = this.radio("talk");
    talk.checked = true;
    talk.dispatchEvent(new Event("change", { bubbles: true }));
  }

  private apply(): void {
    this.radio(this.chatPossible ? this.wanted : "talk").checked = true;
    this.note.hidden = this.chatPossible;
    if (this.chatPossible) this.note.replaceChildren();
    // Folded to one line, so the note does not take the face's room: why at once, what to do on a click.
    else
      this.note.replaceChildren(
        h(
          "details",
          {},
          h("summary", {}, `Chat is unavailable: ${NO_MODEL.replace("Chat needs", "it needs")} Talk works without one.`),
          h("p", {}, ...setModelWords()),
        ),
      );
  }

  private radio(mode: TurnMode): HTMLInputElement {
    return this.form.querySelector<HTMLInputElement>(`input[name=mode][value=${mode}]`)!;
  }
}
