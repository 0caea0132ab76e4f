import type { ServiceType } from "#contract/services";
import type { Provisioner } from "./provisioner";

/**
 * The provisioner of each service type the AWS driver deploys (./driver.ts). A type without one fails its
 * deployments to AWS saying it cannot be deployed there yet.
 */
export const awsProvisioners: Partial<Record<ServiceType, Provisioner>> = {};
