// Implements: the GPU page's launch choice: the regions that can serve a box and their machine
// types (owner-only types for owners), shown only when there is a choice to make; what is chosen
// goes in the launch request's body.
import type { GpuRegionEntry as GpuRegion, GpuStatusBody as GpuStatus } from "../../../shared/wire/gpu.ts";
import { byId, h } from "./dom.ts";

export class LaunchChoice {
  private readonly choice = byId("gpu-launch-choice");
  private readonly regionSel = byId<HTMLSelectElement>("gpu-region");
  private readonly typeSel = byId<HTMLSelectElement>("gpu-type");
  private last: GpuStatus | null = null;

  constructor() {
    this.regionSel.addEventListener("change", () => this.last && this.render(this.last));
  }

  render(s: GpuStatus): void {
    this.last = s;
    const { choice, regionSel, typeSel } = this;
    const servable = s.regions.filter((r) => r.can_serve);
    const typesOf = (r: GpuRegion | undefined) => (r ? [...r.types, ...(s.owner ? r.owner_types : [])] : []);
    const show = s.gpu.can_launch && (servable.length > 1 || typesOf(servable[0]).length > 1);
    choice.hidden = !show;
    if (!show) return;
    if (regionSel.options.length !== servable.length) {
      regionSel.replaceChildren(
        ...servable.map((r) => h("option", { value: r.id }, `${r.label} (${r.id})${r.data_resident ? ", data stays in the country" : ""}`)),
      );
    }
    const region = servable.find((r) => r.id === regionSel.value) ?? servable[0];
    const types = typesOf(region);
    if ([...typeSel.options].map((o) => o.value).join() !== types.join()) {
      typeSel.replaceChildren(...types.map((t) => h("option", { value: t }, region.types.includes(t) ? t : `${t} (owners only)`)));
    }
  }

  /** The launch request's body: the region and type chosen, or none (the portal's own) when no choice is shown. */
  launchBody(): { region: string; instance_type: string } | Record<string, never> {
    return this.choice.hidden ? {} : { region: this.regionSel.value, instance_type: this.typeSel.value };
  }
}
