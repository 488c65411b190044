/** @jsxImportSource hono/jsx */
// Implements: the studio's Portraits page (issue 13 item 2). The server renders the skeleton; the
// script (portal/studio/browser/portraits.ts) fills it from the portal's JSON routes.
import { Shell } from "./layout.tsx";

export function PortraitsPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Portraits" page="portraits" email={props.email} admin={props.admin}>
      <main id="main" class="page-width">
        <h1>Portraits</h1>
      </main>
    </Shell>
  );
}
