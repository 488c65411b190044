/** @jsxImportSource hono/jsx */
// Implements: the live studio's page shell (issue 13 item 2): one stylesheet and one bundled
// script from this origin, a skip link, the navigation, and the signed-in person with sign-out.
import type { Child } from "hono/jsx";

export type StudioPageName = "sign-in" | "live" | "keys" | "library" | "portraits" | "voices" | "gpu" | "docs" | "not-found";

export interface ShellProps {
  title: string;
  page: StudioPageName;
  /** The signed-in person, or null on the sign-in page. */
  email: string | null;
  /** Administrators also see the GPU page in the navigation. */
  admin?: boolean;
  /** The live page: `/studio/early.js` starts the box credential's mint before the bundle runs. */
  early?: boolean;
  /** Body `data-*` facts the script reads (never a secret). */
  data?: Record<string, string>;
  children?: Child;
}

const NAV: { href: string; label: string; page: StudioPageName; admin?: true }[] = [
  { href: "/studio", label: "Live", page: "live" },
  { href: "/studio/library", label: "Avatars", page: "library" },
  { href: "/studio/portraits", label: "Portraits", page: "portraits" },
  { href: "/studio/voices", label: "Voices", page: "voices" },
  { href: "/studio/keys", label: "API keys", page: "keys" },
  { href: "/studio/gpu", label: "GPU", page: "gpu", admin: true },
  { href: "/docs", label: "API", page: "docs" },
];

export function Shell(props: ShellProps) {
  const data = Object.fromEntries(Object.entries(props.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${props.title} · Avatar studio`}</title>
        <link rel="icon" href="data:," />
        {props.early ? <script async src="/studio/early.js"></script> : null}
        <link rel="stylesheet" href="/studio/studio.css" />
        <script type="module" src="/studio/app.js"></script>
      </head>
      <body data-page={props.page} {...data}>
        <a class="skip-link" href="#main">
          Skip to the main content
        </a>
        <header class="top-bar">
          <a class="brand" href="/studio">
            Avatar studio
          </a>
          {props.email ? (
            <nav aria-label="Studio">
              <ul>
                {NAV.filter((n) => !n.admin || props.admin).map((n) => (
                  <li>
                    <a href={n.href} aria-current={n.page === props.page ? "page" : undefined}>
                      {n.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {props.email ? (
            <div class="who">
              <span class="who-email" title={props.email}>
                {props.email}
              </span>
              <button type="button" id="sign-out" class="quiet">
                Sign out
              </button>
            </div>
          ) : null}
        </header>
        {props.children}
        <noscript>
          <p class="notice error page-width">The studio needs JavaScript: allow it for this site and reload the page.</p>
        </noscript>
      </body>
    </html>
  );
}

/** A page as the document the browser gets. */
export async function renderDocument(node: unknown): Promise<string> {
  return `<!doctype html>${String(await node)}`;
}

export function NotFoundPage(props: { email: string | null }) {
  return (
    <Shell title="Not found" page="not-found" email={props.email}>
      <main id="main" class="page-width narrow">
        <h1>No such page</h1>
        <p>
          This address is not a page of the studio. <a href="/studio">Go to the live studio</a>.
        </p>
      </main>
    </Shell>
  );
}
