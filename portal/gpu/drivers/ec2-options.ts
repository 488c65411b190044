// The ec2 driver's options from the portal's validated environment: one mapping for both entries
// (Bun and Deno); the caller reads the user-data file its own way.
import type { PortalEnv } from "../../env.ts";
import type { Ec2DriverOptions } from "./ec2.ts";

export function ec2DriverOptions(env: PortalEnv, userData: string | undefined): Ec2DriverOptions {
  return {
    regions: env.gpuRegions.map((r) => ({
      id: r.id,
      label: r.label ?? r.id,
      dataResident: r.data_resident ?? false,
      canServe: r.can_serve ?? true,
      smokeTest: r.smoke_test ?? false,
      types: r.types,
      ownerTypes: r.owner_types ?? [],
    })),
    imageIds: env.ec2.imageIds,
    deploymentTag: env.ec2.deploymentTag,
    userData,
    subnetIds: env.ec2.subnetIds,
    securityGroupIds: env.ec2.securityGroupIds,
    keyName: env.ec2.keyName ?? undefined,
    iamInstanceProfile: env.ec2.instanceProfile ?? undefined,
    ephemeral: env.ec2.ephemeral,
    endpoint: env.ec2.endpoint ?? undefined,
  };
}
