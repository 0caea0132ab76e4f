import type { ServiceType } from "#contract/service-catalogue";
import { applicationProvisioner } from "./application";
import { cacheProvisioner } from "./cache";
import { databaseProvisioner } from "./database";
import { fileStorageProvisioner } from "./file-storage";
import { kubernetesProvisioner } from "./kubernetes";
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
  database: databaseProvisioner,
  cache: cacheProvisioner,
  kubernetes: kubernetesProvisioner,
  "control-plane": kubernetesProvisioner,
  application: applicationProvisioner,
  queue: queueProvisioner,
  "file-storage": fileStorageProvisioner,
  "nosql-database": nosqlDatabaseProvisioner,
  serverless: serverlessProvisioner,
  tls: tlsProvisioner,
};
