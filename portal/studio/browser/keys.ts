// The keys page: create (the secret comes only from the create answer, is shown once, and is
// removed from the page when the person is done), copy, revoke after a confirmation dialog.
import { byId, say } from "./dom.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { explain, localiseTimes } from "./words.ts";

interface CreatedKey {
  id: string;
  name: string;
  hint: string;
  secret: string;
}

export function startKeys(): void {
  const form = byId<HTMLFormElement>("create-key-form");
  const name = byId<HTMLInputElement>("key-name");
  const result = byId("key-result");
  const panel = byId("new-key");
  const secret = byId<HTMLTextAreaElement>("new-key-secret");
  const copyResult = byId("copy-result");
  const list = byId("key-list");
  const dialog = byId<HTMLDialogElement>("revoke-dialog");
  let revoking: HTMLElement | null = null;
  localiseTimes(list); // the server writes UTC; the studio writes times in the reader's zone

  const failed = (err: unknown, where: HTMLElement) => {
    const p = explain(err);
    if (p.kind === "signed_out") return toSignIn();
    say(where, p.text, "error");
  };

  const refresh = async () => {
    const res = await fetch("/studio/keys/list", { credentials: "same-origin" });
    if (res.status === 401) return toSignIn();
    if (res.ok) list.innerHTML = await res.text(); // server-rendered by the same component, escaped there
    localiseTimes(list);
  };

  const hideSecret = () => {
    secret.value = "";
    panel.hidden = true;
    say(copyResult, "");
  };

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const label = name.value.trim();
    if (!label) {
      say(result, "Give the key a name first: what will use it.", "error");
      name.focus();
      return;
    }
    const button = form.querySelector("button")!;
    button.disabled = true;
    try {
      const { key } = await portalJson<{ key: CreatedKey }>("POST", "/auth/keys", { name: label });
      name.value = "";
      say(result, `Key “${key.name}” created.`, "ok");
      panel.querySelector(".new-key-name")!.textContent = key.name;
      secret.value = key.secret;
      panel.hidden = false;
      panel.focus();
      await refresh();
    } catch (err) {
      failed(err, result);
    } finally {
      button.disabled = false;
    }
  });

  byId("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(secret.value);
      say(copyResult, "Copied. Paste it where your program keeps secrets.", "ok");
    } catch {
      // Clipboard refused (not a secure page, or no permission): select it for a manual copy.
      secret.focus();
      secret.select();
      say(copyResult, "The browser would not copy it for us: the secret is selected, press Ctrl+C (or ⌘C) to copy it.", "error");
    }
  });
  byId("done-key").addEventListener("click", () => {
    hideSecret();
    name.focus();
  });

  list.addEventListener("click", (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>("button.revoke");
    const row = button?.closest<HTMLElement>(".key-row");
    if (!button || !row) return;
    revoking = row;
    dialog.querySelector(".revoke-name")!.textContent = row.dataset.keyName ?? "";
    dialog.querySelector(".revoke-hint")!.textContent = row.dataset.keyHint ?? "";
    dialog.returnValue = "";
    dialog.showModal();
  });

  dialog.addEventListener("close", async () => {
    const row = revoking;
    revoking = null;
    if (dialog.returnValue !== "revoke" || !row) return;
    try {
      await portalJson("DELETE", `/auth/keys/${encodeURIComponent(row.dataset.keyId ?? "")}`);
      say(result, `Key “${row.dataset.keyName}” is revoked: it stopped working everywhere.`, "ok");
      await refresh();
      name.focus();
    } catch (err) {
      failed(err, result);
    }
  });
}
