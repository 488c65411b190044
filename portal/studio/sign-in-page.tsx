/** @jsxImportSource hono/jsx */
// Implements: the studio's sign-in page: an address in, `POST /auth/request-link` (by the script,
// as JSON), and what to do next in words, including where the link is when no mail server is set,
// and "You are signed out" after signing out (shown by the script, which knows where the person came from).
import { Shell } from "./layout.tsx";

export interface SignInPageProps {
  /** Same-origin path to land on after the link (the portal checks it again). */
  next: string;
  /** The outbox folder when mails are written there instead of sent; null with a mail server. */
  outbox: string | null;
  /** Already signed in as this address. */
  signedInAs: string | null;
  /** The link that brought the person here was used, expired or not one of ours. */
  linkProblem: boolean;
}

export function SignInPage(props: SignInPageProps) {
  return (
    <Shell title="Sign in" page="sign-in" email={null}>
      <main id="main" class="page-width narrow">
        <h1>Sign in to the studio</h1>
        {props.signedInAs ? null : (
          <div id="signed-out" class="notice success" role="status" hidden>
            <p>
              <strong>You are signed out.</strong> This browser no longer has your session; sign in again below when you want to come back.
            </p>
          </div>
        )}
        {props.linkProblem ? (
          <div class="notice error" role="alert">
            <p>
              <strong>That sign-in link does not work any more.</strong> A link works once, for 15 minutes. Ask for a new one below.
            </p>
          </div>
        ) : null}
        {props.signedInAs ? (
          <div class="notice info">
            <p>
              You are signed in as <strong>{props.signedInAs}</strong>. <a href={props.next}>Go to the studio</a>, or sign in as someone
              else below.
            </p>
          </div>
        ) : null}
        <p>Type your e-mail address and we send you a link that signs you in. No password.</p>
        <form id="sign-in-form" class="card stack" data-next={props.next}>
          <div class="field">
            <label for="email">E-mail address</label>
            <input id="email" name="email" type="email" autocomplete="email" inputmode="email" required spellcheck={false} />
          </div>
          <button type="submit" class="primary">
            Send me a sign-in link
          </button>
        </form>
        <div id="sign-in-result" class="result" role="status" aria-live="polite"></div>
        <div id="sign-in-sent" class="notice success" hidden tabindex={-1}>
          <p>
            <strong>Check your mail.</strong> If <span class="sent-to"></span> can sign in, a link is on its way. It works once, for 15
            minutes.
          </p>
          {props.outbox ? (
            <p>
              This portal has no mail server (as under <code>npm start</code>): the link is printed on the portal's console and written to
              the folder <code>{props.outbox}</code>.
            </p>
          ) : (
            <p>Nothing after a minute? Look in the spam folder, then ask for a new link.</p>
          )}
        </div>
        {props.outbox ? (
          <p class="hint" id="outbox-hint">
            Running locally? Links are not mailed here: they appear on the portal's console and in <code>{props.outbox}</code>.
          </p>
        ) : null}
      </main>
    </Shell>
  );
}
