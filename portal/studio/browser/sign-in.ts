// The sign-in page: the address goes to `POST /auth/request-link` as JSON (a cross-site form could
// not send that); the answer is always the same, so the page says what to do next either way.
// Arriving from signing out (the studio's Sign out lands on `?signed_out=1`), the page says so first.
import { byId, say } from "./dom.ts";
import { portalJson } from "./portal-api.ts";
import { explain } from "./words.ts";

export function startSignIn(): void {
  const signedOut = document.getElementById("signed-out");
  if (signedOut && new URL(location.href).searchParams.get("signed_out") === "1") signedOut.hidden = false;
  const form = byId<HTMLFormElement>("sign-in-form");
  const email = byId<HTMLInputElement>("email");
  const result = byId("sign-in-result");
  const sent = byId("sign-in-sent");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const address = email.value.trim();
    if (!address || !email.checkValidity()) {
      say(result, "Type your e-mail address, like name@example.com.", "error");
      email.focus();
      return;
    }
    const button = form.querySelector("button")!;
    button.disabled = true;
    say(result, "Sending…");
    try {
      await portalJson("POST", "/auth/request-link", { email: address, next: form.dataset.next ?? "/studio" });
      say(result, "");
      if (signedOut) signedOut.hidden = true;
      sent.querySelector(".sent-to")!.textContent = address;
      sent.hidden = false;
      document.getElementById("outbox-hint")?.remove(); // the notice says it now
      sent.focus();
    } catch (err) {
      say(result, explain(err).text, "error");
    } finally {
      button.disabled = false;
    }
  });
}
