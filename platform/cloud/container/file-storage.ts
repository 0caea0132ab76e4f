import { configOf } from "../configs";
import type { DriverResource } from "../driver";
import type { DataServiceKind, ServerAddress } from "./data-service";
import type { ReadinessCheck } from "./probe";

/**
 * A file storage on a container engine: an S3-compatible server from the official RustFS image (decision 067:
 * maintained, Apache-2.0, one container configured by variables as MinIO's was), its root access key and secret
 * given as the image takes them (RUSTFS_ACCESS_KEY, RUSTFS_SECRET_KEY: read at every start, so a new secret needs
 * nothing set on the data), its data in /data on the service's volume, port 9000. Once it answers, the bucket the
 * configuration names is created (kept when it exists: a redeploy) and versioned as it says. Its attributes are the
 * AWS bucket's and the simulated cloud's: `accessKeyId` and `secretAccessKey` sealed; `endpointUrl`, `bucketName`,
 * `region`, `host` and `port` plain; the endpoint is the bucket's URL.
 */

/** Pinned: RustFS is young, and a redeploy must not move the data to another version by itself. */
export const RUSTFS_IMAGE = "rustfs/rustfs:1.0.0-alpha.85";
/** The region RustFS answers for unless told otherwise; clients sign for it. */
const REGION = "us-east-1";
const SECRET_VARIABLE = "RUSTFS_SECRET_KEY=";

/**
 * The access key: the service's own (from its id, so every container of the service has the same one), 20
 * characters as AWS's; the secret beside it is the generated password.
 */
const accessKeyOf = (resource: DriverResource) =>
  `RFS${resource.id.replace(/-/g, "").slice(0, 17).toUpperCase()}`;

const endpointUrl = ({ host, port }: ServerAddress) => `http://${host}:${port}`;

export const containerFileStorage: DataServiceKind = {
  server: "RustFS",
  image: () => RUSTFS_IMAGE,
  port: 9000,
  dataPath: "/data",
  container: (resource, password) => ({
    Env: [`RUSTFS_ACCESS_KEY=${accessKeyOf(resource)}`, `${SECRET_VARIABLE}${password}`],
    Cmd: ["/data"],
  }),
  password: {
    of: (inspected) =>
      inspected.Config.Env?.find((variable) => variable.startsWith(SECRET_VARIABLE))?.slice(
        SECRET_VARIABLE.length,
      ),
    attribute: "secretAccessKey",
    // Read at every start: a new secret needs nothing set on the data.
    keptOnData: false,
  },
  secretAttributeNames: ["accessKeyId", "secretAccessKey"],
  ready: () => healthReady,
  async prepare(resource, address) {
    const { bucketName, versioning } = configOf(resource, "file-storage");
    // Loaded when a bucket is made, as the AWS driver loads its clients: the platform starts without it.
    const {
      CreateBucketCommand,
      GetBucketVersioningCommand,
      HeadBucketCommand,
      PutBucketVersioningCommand,
      S3Client,
    } = await import("@aws-sdk/client-s3");
    const s3 = new S3Client({
      endpoint: endpointUrl(address),
      region: REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: accessKeyOf(resource), secretAccessKey: address.password },
      maxAttempts: 2,
    });
    try {
      const lines: string[] = [];
      // A redeploy finds the bucket on the volume (some servers would answer a second CreateBucket with success).
      const exists = await s3.send(new HeadBucketCommand({ Bucket: bucketName })).then(
        () => true,
        (error: unknown) => {
          if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
            return false;
          throw error;
        },
      );
      if (!exists) {
        await s3.send(new CreateBucketCommand({ Bucket: bucketName }));
        lines.push(`Created bucket ${bucketName}`);
      }
      const { Status: status } = await s3.send(new GetBucketVersioningCommand({ Bucket: bucketName }));
      // Versioning once enabled can only be suspended (as on AWS); a bucket never versioned stays so.
      const wanted = versioning ? "Enabled" : status === "Enabled" ? "Suspended" : undefined;
      if (wanted && wanted !== status) {
        await s3.send(
          new PutBucketVersioningCommand({ Bucket: bucketName, VersioningConfiguration: { Status: wanted } }),
        );
        lines.push(`Versioning of bucket ${bucketName}: ${wanted.toLowerCase()}`);
      }
      return lines;
    } finally {
      s3.destroy();
    }
  },
  attributes(resource, address) {
    return {
      secrets: { accessKeyId: accessKeyOf(resource), secretAccessKey: address.password },
      outputs: {
        endpointUrl: endpointUrl(address),
        bucketName: configOf(resource, "file-storage").bucketName,
        region: REGION,
        host: address.host,
        port: address.port,
      },
    };
  },
  endpoint: (resource, address) => `${endpointUrl(address)}/${configOf(resource, "file-storage").bucketName}`,
};

/**
 * Whether the S3 server answers: RustFS's `GET /health` answered 200, asked from its container with the wget its
 * image (Alpine's busybox) has.
 */
const healthReady: ReadinessCheck = {
  command: () => ({ Cmd: ["wget", "-q", "-O", "-", "http://127.0.0.1:9000/health"] }),
  answer: (exitCode, output) =>
    exitCode === 0
      ? { healthy: true, said: "GET /health answered 200" }
      : { healthy: false, said: `GET /health failed${output ? ` (${output.split("\n")[0]})` : ""}` },
};
