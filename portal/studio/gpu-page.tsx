/** @jsxImportSource hono/jsx */
// Implements: the studio's GPU page (issue 13 item 2). The server renders the skeleton; the
// script (portal/studio/browser/gpu.ts) fills it from the portal's JSON routes.
import { Shell } from "./layout.tsx";

export function GpuPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="GPU" page="gpu" email={props.email} admin={props.admin}>
      <main id="main" class="page-width">
        <h1>GPU</h1>
      </main>
    </Shell>
  );
}
