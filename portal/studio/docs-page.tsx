/** @jsxImportSource hono/jsx */
// Implements: the API reference page (`/docs`): both planes' OpenAPI documents as server-rendered
// HTML (operations by area, parameters, bodies and answers as field tables, refusal codes), with
// plain links to the raw documents. No script of its own and nothing from another origin: each
// operation is a <details> element, so it opens and closes without JavaScript.
import type { BoxDocument } from "../openapi/box-document.ts";
import { referenceGroups, type FieldRow, type ReferenceGroup, type ReferenceOperation } from "../openapi/reference.ts";
import { BOX_DOCUMENT_PATH, PORTAL_DOCUMENT_PATH } from "../openapi/routes.ts";
import { Shell } from "./layout.tsx";

export interface DocsPageProps {
  email: string | null;
  admin: boolean;
  portal: Record<string, unknown>;
  box: BoxDocument;
}

const ACCESS_LABEL: Record<string, string> = {
  session: "signed in",
  admin: "administrator",
  none: "anyone",
  signature: "signed URL",
  public: "public",
  any: "key or session token",
  full: "full key",
};

function Fields(props: { rows: FieldRow[] }) {
  if (props.rows.length === 0) return null;
  if (props.rows.length === 1 && props.rows[0].name === "") {
    return (
      <p class="doc-type">
        <code>{props.rows[0].type}</code>
      </p>
    );
  }
  return (
    <div class="doc-table-wrap">
      <table class="doc-fields">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr>
              <td>
                <code>{r.name}</code>
                {r.required ? null : <span class="doc-optional"> optional</span>}
              </td>
              <td>
                <code>{r.type}</code>
              </td>
              <td>{r.notes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation(props: { op: ReferenceOperation }) {
  const op = props.op;
  return (
    <details class="doc-op" id={op.anchor}>
      <summary>
        <span class={`doc-method doc-${op.method.toLowerCase()}`}>{op.method}</span> <code class="doc-path">{op.path}</code>
        <span class="doc-summary">{op.summary}</span>
        {op.access ? <span class="doc-access">{ACCESS_LABEL[op.access] ?? op.access}</span> : null}
      </summary>
      <div class="doc-body">
        {op.parameters.length ? (
          <section>
            <h5>Parameters</h5>
            <ul class="doc-params">
              {op.parameters.map((p) => (
                <li>
                  <code>{p.name}</code> ({p.in}, <code>{p.type}</code>
                  {p.required ? ", required" : ""})
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {op.body ? (
          <section>
            <h5>Request body (JSON{op.body.required ? "" : ", optional"})</h5>
            <Fields rows={op.body.rows} />
          </section>
        ) : null}
        <section>
          <h5>Responses</h5>
          {op.answers.map((a) => (
            <div class="doc-answer">
              <p>
                <strong class={`doc-status doc-s${a.status[0]}`}>{a.status}</strong>{" "}
                {a.codes.length ? (
                  a.codes.map((c) => <code class="doc-code">{c}</code>)
                ) : /^HTTP \d+$/.test(a.description) ? null : (
                  <span>{a.description}</span>
                )}
                {a.contentType && a.contentType !== "application/json" ? <span class="doc-ctype"> {a.contentType}</span> : null}
              </p>
              {a.codes.length ? null : <Fields rows={a.rows} />}
            </div>
          ))}
        </section>
      </div>
    </details>
  );
}

function Plane(props: { id: string; title: string; groups: ReferenceGroup[] }) {
  return (
    <section class="doc-plane" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.groups.map((g) => (
        <section class="doc-group" id={`${props.id}-${g.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`}>
          <h3>{g.name}</h3>
          {g.operations.map((op) => (
            <Operation op={op} />
          ))}
        </section>
      ))}
    </section>
  );
}

function Contents(props: { id: string; title: string; groups: ReferenceGroup[] }) {
  return (
    <li>
      <a href={`#${props.id}-title`}>{props.title}</a>
      <ul>
        {props.groups.map((g) => (
          <li>
            <a href={`#${props.id}-${g.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`}>{g.name}</a>{" "}
            <span class="doc-count">{g.operations.length}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function DocsPage(props: DocsPageProps) {
  const portal = referenceGroups(props.portal, "portal");
  const box = props.box.ok ? referenceGroups(props.box.doc, "box") : [];
  return (
    <Shell title="API reference" page="docs" email={props.email} admin={props.admin}>
      <main id="main" class="page-width doc-page">
        <h1>API reference</h1>
        <p>
          Two planes answer on this host. The <strong>portal</strong> (<code>/auth/*</code>) signs people in and keeps their keys, avatars,
          consent, portraits and voice keys; it mints the short-lived credential a browser uses on the <strong>box</strong>, which serves
          chat, speech and the live stream. Box paths sent here are forwarded to the running box.
        </p>
        <p class="doc-raw">
          Raw OpenAPI 3.1: <a href={PORTAL_DOCUMENT_PATH}>portal ({PORTAL_DOCUMENT_PATH})</a> ·{" "}
          <a href={BOX_DOCUMENT_PATH}>box ({BOX_DOCUMENT_PATH})</a>
        </p>
        <nav class="doc-contents" aria-label="Contents">
          <ul>
            <Contents id="portal" title="Portal" groups={portal} />
            {props.box.ok ? <Contents id="box" title="Box" groups={box} /> : null}
            <li>
              <a href="#errors">Error envelopes</a>
            </li>
          </ul>
        </nav>
        <Plane id="portal" title="Portal" groups={portal} />
        {props.box.ok ? (
          <Plane id="box" title="Box" groups={box} />
        ) : (
          <section class="doc-plane" aria-labelledby="box-title">
            <h2 id="box-title">Box</h2>
            <p class="notice warning">{props.box.why}</p>
          </section>
        )}
        <section class="doc-plane" id="errors" aria-labelledby="errors-title">
          <h2 id="errors-title">Error envelopes</h2>
          <p>
            Branch on <code>code</code>, which is stable; <code>message</code> is written for a person and may be reworded.
          </p>
          <ul class="doc-envelopes">
            <li>
              <code>{'{"error": {"code", "message"}}'}</code>: every <code>/auth/*</code> refusal and the newer box routes (clips, photo
              avatars, settings).
            </li>
            <li>
              <code>{'{"code", "message"}'}</code>: authentication failures (401) and <code>POST /v1/streaming.create_token</code>.
            </li>
            <li>
              <code>{'{"error": "..."}'}</code>: the older box routes.
            </li>
            <li>
              <code>{'{"ok": false, "error": {"code", "message"}}'}</code>: a refused <code>/api/settings</code> write.
            </li>
          </ul>
        </section>
      </main>
    </Shell>
  );
}
