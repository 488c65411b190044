// Implements: the GPU page's diagnostics on demand (`GET /auth/gpu/diagnostics`): the provider's
// status checks and the hostname's resolution, read when the section opens or on Refresh.
import type { GpuDiagnostics as Diagnostics } from "../../../shared/wire/gpu.ts";
import { byId, h } from "./dom.ts";
import { row } from "./gpu-facts.ts";
import { portalJson } from "./portal-api.ts";

/** How the page handles a failure: `handled` is true when it took over (not an admin, signed out). */
export interface GpuFailure {
  handled(err: unknown): boolean;
  words(err: unknown): string;
}

export function wireDiagnostics(failure: GpuFailure): void {
  const details = byId<HTMLDetailsElement>("gpu-diagnostics");
  const diagBody = byId("diagnostics-body");
  const diagBtn = byId<HTMLButtonElement>("diagnostics-refresh");

  async function diagnose(): Promise<void> {
    diagBtn.disabled = true;
    try {
      const d = (await portalJson<Diagnostics>("GET", "/auth/gpu/diagnostics")).diagnostics;
      const yesNo = (v: boolean | null) => (v === null ? "not known" : v ? "yes" : "no");
      diagBody.replaceChildren(
        h(
          "dl",
          { class: "gpu-facts" },
          ...row("Instance status", d.instance_status ?? "not applicable"),
          ...row("System status", d.system_status ?? "not applicable"),
          ...row(
            "Checks",
            d.checks.length
              ? h("ul", { class: "gpu-checks" }, ...d.checks.map((c) => h("li", {}, h("code", {}, c.name), `: ${c.status}`)))
              : "none",
          ),
          ...row("Hostname", d.hostname ? h("code", {}, d.hostname) : "none"),
          ...row("Resolves to", d.resolves_to === null ? "not looked up" : d.resolves_to.length ? d.resolves_to.join(", ") : "nothing"),
          ...row("Resolves to its public address", yesNo(d.resolves_to_public_ip)),
        ),
        h("p", { class: "hint" }, `Checked at ${new Date().toLocaleTimeString()}.`),
      );
    } catch (err) {
      if (failure.handled(err)) return;
      diagBody.replaceChildren(h("p", { class: "result error" }, `The diagnostics could not be read: ${failure.words(err)}`));
    } finally {
      diagBtn.disabled = false;
    }
  }
  details.addEventListener("toggle", () => {
    if (details.open) void diagnose();
  });
  diagBtn.addEventListener("click", () => void diagnose());
}
