import { randomBytes } from "node:crypto";
import type { ServiceType } from "#contract/service-catalogue";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import { accountIdOf } from "./resource";

/**
 * Secret attributes a first deployment creates. Values come from crypto.randomBytes (never from the simulation's
 * PRNG) and are generated once: the engine seals and keeps them across redeployments. Types whose provider does not
 * hand out a secret have none: a network, an ACM certificate (its private key cannot be exported), an application.
 */
export const secretAttributeNamesByType: Record<ServiceType, string[]> = {
  database: ["password", "connectionString"],
  cache: ["authToken", "connectionString"],
  queue: ["accessKeyId", "secretAccessKey"],
  "file-storage": ["accessKeyId", "secretAccessKey"],
  "nosql-database": ["accessKeyId", "secretAccessKey"],
  // An IAM key allowed to invoke the function URL (AuthType AWS_IAM).
  serverless: ["accessKeyId", "secretAccessKey"],
  kubernetes: ["kubeconfig"],
  "control-plane": ["serviceAccountToken"],
  network: [],
  tls: [],
  application: [],
};

const upperAlphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** An AWS access key pair: `AKIA` + 16 characters, and a 40-character secret. */
function accessKeyPair(): Record<string, string> {
  const id = [...randomBytes(16)].map((byte) => upperAlphanumeric[byte % 32]).join("");
  return { accessKeyId: `AKIA${id}`, secretAccessKey: randomBytes(30).toString("base64").slice(0, 40) };
}

/** Letters and digits only, so it needs no escaping in a URL or a shell. */
function password(length: number): string {
  return randomBytes(length * 2)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, length);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function createSecretAttributesOf(
  resource: DriverResource,
  endpoint: string | null,
): Record<string, string> {
  const host = endpoint ?? `${resource.name}.internal`;
  switch (resource.serviceType) {
    case "database": {
      const { engine, username } = configOf(resource, "database");
      const secret = password(24);
      const database = resource.name.replace(/-/g, "_");
      const scheme = engine === "postgres" ? "postgres" : engine;
      const port = engine === "postgres" ? 5432 : 3306;
      return {
        password: secret,
        connectionString: `${scheme}://${username}:${secret}@${host}:${port}/${database}`,
      };
    }
    case "cache": {
      const { engine, encryptionInTransit } = configOf(resource, "cache");
      const token = password(32);
      const connectionString =
        engine === "memcached"
          ? `memcached://${host}:11211`
          : `${encryptionInTransit ? "rediss" : "redis"}://:${token}@${host}:6379`;
      return { authToken: token, connectionString };
    }
    case "queue":
    case "file-storage":
    case "nosql-database":
    case "serverless":
      return accessKeyPair();
    case "kubernetes": {
      const certificateAuthority = randomBytes(600).toString("base64");
      const token = `k8s-aws-v1.${randomBytes(48).toString("base64url")}`;
      const cluster = `arn:aws:eks:${resource.region}:${accountIdOf(resource.environmentName)}:cluster/${resource.name}`;
      const kubeconfig = [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- cluster:",
        `    certificate-authority-data: ${certificateAuthority}`,
        `    server: ${host}`,
        `  name: ${cluster}`,
        "contexts:",
        "- context:",
        `    cluster: ${cluster}`,
        `    user: ${cluster}`,
        `  name: ${resource.name}`,
        `current-context: ${resource.name}`,
        "users:",
        `- name: ${cluster}`,
        "  user:",
        `    token: ${token}`,
        "",
      ].join("\n");
      return { kubeconfig };
    }
    case "control-plane": {
      const header = base64url({ alg: "RS256", kid: randomBytes(20).toString("hex") });
      const payload = base64url({
        iss: "kubernetes/serviceaccount",
        "kubernetes.io/serviceaccount/namespace": "kube-system",
        "kubernetes.io/serviceaccount/service-account.name": `${resource.name}-admin`,
        sub: `system:serviceaccount:kube-system:${resource.name}-admin`,
      });
      return { serviceAccountToken: `${header}.${payload}.${randomBytes(256).toString("base64url")}` };
    }
    case "network":
    case "tls":
    case "application":
      return {};
  }
}
