/** @jsxImportSource hono/jsx */
// Implements: the studio's keys page (`/auth/keys`): create (the secret shown once, by the script,
// from the create answer only), copy, list, revoke with a confirmation. The server-rendered list
// holds hints, never a secret; the script swaps in `/studio/keys/list` after each change.
import type { ApiKeyRecord } from "../keys/schema.ts";
import { KEY_LIMIT, KEY_NAME_MAX } from "../keys/schema.ts";
import { ConfirmDialog } from "./dialog.tsx";
import { Shell } from "./layout.tsx";

export function utcMinute(epochSeconds: number): string {
  return `${new Date(epochSeconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function When(props: { at: number }) {
  return <time datetime={new Date(props.at * 1000).toISOString()}>{utcMinute(props.at)}</time>;
}

function KeyRow(props: { k: ApiKeyRecord }) {
  const k = props.k;
  return (
    <li class="key-row" data-key-id={k.id} data-key-name={k.name} data-key-hint={k.hint}>
      <div class="key-facts">
        <h3 class="key-name">{k.name}</h3>
        <p class="hint">
          <code>{k.hint}</code> · created <When at={k.created_at} />
          {k.revoked && k.revoked_at !== null ? (
            <>
              {" "}
              · revoked <When at={k.revoked_at} />
            </>
          ) : null}
        </p>
      </div>
      {k.revoked ? (
        <span class="badge muted">Revoked</span>
      ) : (
        <button type="button" class="danger-outline revoke" aria-label={`Revoke key ${k.name}`}>
          Revoke
        </button>
      )}
    </li>
  );
}

/** The list as the page shows it: active keys newest first, revoked ones folded away. */
export function KeyList(props: { keys: ApiKeyRecord[] }) {
  const newestFirst = [...props.keys].reverse();
  const active = newestFirst.filter((k) => !k.revoked);
  const revoked = newestFirst.filter((k) => k.revoked);
  return (
    <div id="key-list-body">
      <p class="hint">
        {active.length} active, {revoked.length} revoked; at most {KEY_LIMIT} keys in all (revoked ones count).
      </p>
      {active.length ? (
        <ul class="key-list">
          {active.map((k) => (
            <KeyRow k={k} />
          ))}
        </ul>
      ) : (
        <p class="empty">No active keys. Create one above.</p>
      )}
      {revoked.length ? (
        <details class="revoked-keys">
          <summary>Revoked keys ({revoked.length})</summary>
          <ul class="key-list">
            {revoked.map((k) => (
              <KeyRow k={k} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

export function KeysPage(props: { email: string; admin?: boolean; keys: ApiKeyRecord[] }) {
  return (
    <Shell title="API keys" page="keys" email={props.email} admin={props.admin}>
      <main id="main" class="page-width medium">
        <h1>API keys</h1>
        <p class="lead">
          A key lets a program of yours call the box as you (every route). It works on the box at once and stops at once when you revoke it.
          Keep keys on servers: a web page should get a short-lived credential from your backend instead.
        </p>
        <section class="card" aria-labelledby="create-h">
          <h2 id="create-h">Create a key</h2>
          <form id="create-key-form" class="field">
            <label for="key-name">Name</label>
            <div class="inline-form">
              <input
                id="key-name"
                name="name"
                class="grow"
                maxlength={KEY_NAME_MAX}
                required
                autocomplete="off"
                aria-describedby="key-name-hint"
              />
              <button type="submit" class="primary">
                Create key
              </button>
            </div>
            <p id="key-name-hint" class="hint">
              What will use it, for example “website backend”. 1 to {KEY_NAME_MAX} characters.
            </p>
          </form>
          <div id="key-result" class="result" role="status" aria-live="polite"></div>
          <div id="new-key" class="secret-panel" role="group" hidden tabindex={-1} aria-labelledby="new-key-h">
            <h3 id="new-key-h">
              New key: <span class="new-key-name"></span>
            </h3>
            <p>
              <strong>Copy the secret now.</strong> This is the only time it is shown: the portal keeps a digest of it and cannot show it
              again.
            </p>
            <div class="secret-row">
              <label for="new-key-secret" class="visually-hidden">
                Secret of the new key
              </label>
              <textarea id="new-key-secret" class="mono" rows={2} readonly autocomplete="off" spellcheck={false}></textarea>
              <button id="copy-key" type="button" class="primary">
                Copy
              </button>
            </div>
            <p id="copy-result" class="result" role="status" aria-live="polite"></p>
            <button id="done-key" type="button">
              I have saved it: hide the secret
            </button>
          </div>
        </section>
        <section aria-labelledby="list-h">
          <h2 id="list-h">Your keys</h2>
          <div id="key-list" aria-live="polite">
            <KeyList keys={props.keys} />
          </div>
        </section>
        <ConfirmDialog
          name="revoke"
          title="Revoke this key?"
          keep="Keep the key"
          act={{ value: "revoke", label: "Revoke key", tone: "danger" }}
        >
          <p id="revoke-what">
            The key <strong class="revoke-name"></strong> (<code class="revoke-hint"></code>) stops working at once, everywhere it is used.
            This cannot be undone.
          </p>
        </ConfirmDialog>
      </main>
    </Shell>
  );
}
