import type { CreatableServiceType } from "#contract/service-catalogue";

/** One line under each create page's title: what the service is for. */
export const createPageDescriptions: Record<CreatableServiceType, string> = {
  database: "A managed relational database: PostgreSQL, MySQL or MariaDB, with backups.",
  cache: "An in-memory cache for sessions and hot data: Redis, Valkey or Memcached.",
  queue: "A message queue that decouples the parts of your system.",
  "file-storage": "A bucket for files and objects.",
  "nosql-database": "A key-value and document table that scales on demand.",
  serverless: "A function that runs your code on demand, from a zip archive.",
  kubernetes: "A Kubernetes cluster's worker nodes, scaling between a minimum and a maximum.",
  "control-plane": "A managed Kubernetes control plane.",
  network: "The environment's private network: subnets across availability zones and NAT gateways.",
  tls: "A TLS certificate for your domains.",
};
