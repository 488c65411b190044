/** @jsxImportSource hono/jsx */
// The studio's confirmation dialog (a destructive or binding step): `<name>-dialog` labelled by its
// title and described by the element `<name>-what` in its body; the safe button comes first and
// has the focus, so Enter or Escape never does the irreversible thing by accident.
import type { Child } from "hono/jsx";

export function ConfirmDialog(props: {
  name: string;
  title: Child;
  keep: string;
  act: { value: string; label: string; tone: "danger" | "primary" };
  children?: Child;
}) {
  const { name } = props;
  return (
    <dialog id={`${name}-dialog`} aria-labelledby={`${name}-title`} aria-describedby={`${name}-what`}>
      <form method="dialog" class="stack">
        <h2 id={`${name}-title`}>{props.title}</h2>
        {props.children}
        <div class="actions">
          <button value="cancel" type="submit" autofocus>
            {props.keep}
          </button>
          <button value={props.act.value} type="submit" class={props.act.tone}>
            {props.act.label}
          </button>
        </div>
      </form>
    </dialog>
  );
}
