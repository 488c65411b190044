/** @jsxImportSource hono/jsx */
// Implements: the studio's Avatars page (issue 13 item 2). The server renders the skeleton; the
// script (portal/studio/browser/library.ts) fills it from the portal's JSON routes.
import { Shell } from "./layout.tsx";

export function LibraryPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Avatars" page="library" email={props.email} admin={props.admin}>
      <main id="main" class="page-width">
        <h1>Avatars</h1>
      </main>
    </Shell>
  );
}
