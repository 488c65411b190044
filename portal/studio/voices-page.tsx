/** @jsxImportSource hono/jsx */
// Implements: the studio's Voices page (issue 13 item 2). The server renders the skeleton; the
// script (portal/studio/browser/voices.ts) fills it from the portal's JSON routes.
import { Shell } from "./layout.tsx";

export function VoicesPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Voices" page="voices" email={props.email} admin={props.admin}>
      <main id="main" class="page-width">
        <h1>Voices</h1>
      </main>
    </Shell>
  );
}
