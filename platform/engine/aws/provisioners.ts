import type { ServiceType } from "#contract/services";
import { fileStorageProvisioner } from "./file-storage";
import { networkProvisioner } from "./network";
import { nosqlDatabaseProvisioner } from "./nosql-database";
import type { Provisioner } from "./provisioner";
import { queueProvisioner } from "./queue";
import { serverlessProvisioner } from "./serverless";
import { tlsProvisioner } from "./tls";

/**
 * The provisioner of each service type the AWS driver deploys (./driver.ts). A type without one fails its
 * deployments to AWS saying it cannot be deployed there yet.
 */
export const awsProvisioners: Partial<Record<ServiceType, Provisioner>> = {
  network: networkProvisioner,
  queue: queueProvisioner,
  "file-storage": fileStorageProvisioner,
  "nosql-database": nosqlDatabaseProvisioner,
  serverless: serverlessProvisioner,
  tls: tlsProvisioner,
};
