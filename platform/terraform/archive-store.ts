import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PlatformConfig } from "../lib/config";
import { isAwsError } from "../cloud/aws/aws-errors";

/** Where generated archives are kept until their download link expires. */
export type ArchiveStore = {
  put: (key: string, bytes: Uint8Array) => Promise<void>;
  /** null when there is no such archive (never stored, or already removed). */
  get: (key: string) => Promise<Uint8Array | null>;
  delete: (key: string) => Promise<void>;
};

const keyPattern = /^[A-Za-z0-9-]+\.zip$/;

function checkedKey(key: string): string {
  // Keys are job ids the platform made; anything else must never reach a file path or an object key.
  if (!keyPattern.test(key)) throw new Error(`invalid archive key ${JSON.stringify(key)}`);
  return key;
}

export function directoryArchiveStore(directory: string): ArchiveStore {
  const fileOf = (key: string) => path.join(directory, checkedKey(key));
  return {
    async put(key, bytes) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await writeFile(fileOf(key), bytes, { mode: 0o600 });
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

/** For tests and the in-memory database: archives live as long as the process. */
export function memoryArchiveStore(): ArchiveStore {
  const archives = new Map<string, Uint8Array>();
  return {
    put: async (key, bytes) => void archives.set(checkedKey(key), bytes),
    get: async (key) => archives.get(checkedKey(key)) ?? null,
    delete: async (key) => void archives.delete(checkedKey(key)),
  };
}

export function s3ArchiveStore({
  bucket,
  region,
  endpoint,
}: {
  bucket: string;
  region: string;
  endpoint?: string;
}): ArchiveStore {
  // Loaded on first use, so a platform that keeps archives on disk never imports the SDK.
  const sdk = import("@aws-sdk/client-s3").then((module) => ({
    module,
    client: new module.S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) }),
  }));
  const objectKey = (key: string) => `terraform/${checkedKey(key)}`;
  return {
    async put(key, bytes) {
      const { module, client } = await sdk;
      await client.send(
        new module.PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: "application/zip",
          ServerSideEncryption: "AES256",
        }),
      );
    },
    async get(key) {
      const { module, client } = await sdk;
      try {
        const answer = await client.send(
          new module.GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }),
        );
        return answer.Body ? await answer.Body.transformToByteArray() : null;
      } catch (error) {
        if (isAwsError(error, "NoSuchKey", "NotFound")) return null;
        throw error;
      }
    },
    async delete(key) {
      const { module, client } = await sdk;
      await client.send(new module.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
  };
}

/** The configured store: an S3 bucket when TERRAFORM_ARCHIVE_BUCKET is set, else DATA_DIR/terraform. */
export function archiveStoreFor(config: Pick<PlatformConfig, "dataDir" | "terraform">): ArchiveStore {
  const { archiveBucket, awsRegion, awsEndpoint } = config.terraform;
  if (archiveBucket)
    return s3ArchiveStore({ bucket: archiveBucket, region: awsRegion, endpoint: awsEndpoint });
  if (config.dataDir === "memory") return memoryArchiveStore();
  return directoryArchiveStore(path.join(config.dataDir, "terraform"));
}
