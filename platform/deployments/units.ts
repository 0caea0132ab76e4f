import { serviceUnitLabels, type ServiceType } from "#contract/service-catalogue";
import { type ServiceUnits } from "#contract/services";
import type { Database } from "../db/index";
import type { EnvironmentRow } from "../environments/records";
import type { ResourceRow } from "../services/records";
import { deployContextOf } from "./cloud-steps";
import type { DeployDriver } from "../cloud/driver";

/**
 * The units a service runs now, for its overview (docs/decisions/052): asked of its cloud when the cloud can say
 * (AWS: ECS tasks, RDS instances, cache nodes, EKS nodes), else the pods the simulated cloud's last deployment
 * made up, marked simulated. A type without units (`serviceUnitLabels`) has none in either cloud. A cloud that
 * refuses or does not answer throws its `CloudStepError`, in words.
 */
export async function unitsOf(
  db: Database,
  cloud: DeployDriver,
  { row, environment }: { row: ResourceRow; environment: EnvironmentRow },
  now: Date,
): Promise<ServiceUnits> {
  const simulated = !cloud.units;
  if (!serviceUnitLabels[row.serviceType as ServiceType]) return { simulated, units: [] };
  if (!cloud.units) {
    return { simulated, units: row.pods.map((pod) => ({ name: pod.name, status: pod.status })) };
  }
  // Never deployed: nothing in the cloud to ask about.
  if (row.cloudState === null) return { simulated, units: [] };
  const context = await deployContextOf(
    db,
    db,
    { resource: row, environment, step: 0, progress: null, change: "deploy", podNames: [] },
    now,
  );
  return { simulated, units: await cloud.units(context) };
}
