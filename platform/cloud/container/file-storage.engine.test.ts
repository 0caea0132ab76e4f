import { randomUUID } from "node:crypto";
import { GetBucketVersioningCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { setUpContainerEngine } from "../../testing/container-engine";
import { containerContext, deployUntilDone, destroyUntilDone } from "../../testing/container-deploys";
import { createContainerDriver } from "./driver";
import { LABEL_SERVICE, labelFilter } from "./labels";

const engine = setUpContainerEngine({ officialImages: ["rustfs"] });
const driverOf = () => createContainerDriver({ dockerHost: engine.dockerHost, timeScale: 0.05 });

function storageResource(): DriverResource {
  return {
    id: randomUUID(),
    name: "uploads",
    serviceType: "file-storage",
    config: { ...defaultServiceConfigs["file-storage"], bucketName: "shop-uploads", versioning: true },
    settings: defaultServiceSettings,
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

const deployed = (resource: DriverResource, state: Record<string, string> = {}) =>
  deployUntilDone(driverOf(), containerContext(resource, state), 400);

/** An S3 client as an application makes one from the service's attributes. */
function s3Of(attributes: { secrets: Record<string, string>; outputs: Record<string, string> }) {
  return new S3Client({
    // From the engine's host (the test's); an application on the environment's network uses endpointUrl.
    endpoint: attributes.outputs.hostEndpointUrl,
    region: attributes.outputs.region,
    forcePathStyle: true,
    credentials: {
      accessKeyId: attributes.secrets.accessKeyId ?? "",
      secretAccessKey: attributes.secrets.secretAccessKey ?? "",
    },
  });
}

async function read(s3: S3Client, bucket: string, key: string): Promise<string | undefined> {
  const { Body: body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return body?.transformToString();
}

const labelled = (resourceId: string) => ({ filters: labelFilter({ [LABEL_SERVICE]: resourceId }) });

describe("an S3-compatible file storage on the container engine", () => {
  it("runs RustFS with sealed keys on a named volume, creates the bucket, keeps its objects across a redeploy, and leaves nothing once deleted", async () => {
    const resource = storageResource();
    const first = await deployed(resource);

    expect(first.lines[0]?.message).toBe('Pulling image "rustfs/rustfs:1.0.0-alpha.85"');
    const port = first.state.hostPort ?? "";
    expect(first.outputs).toEqual({
      endpointUrl: `http://${resource.name}:9000`,
      bucketName: "shop-uploads",
      region: "us-east-1",
      host: resource.name,
      port: "9000",
      hostEndpointUrl: `http://127.0.0.1:${port}`,
    });
    expect(first.endpoint).toBe(`http://127.0.0.1:${port}/shop-uploads`);
    expect(first.secrets.accessKeyId).toMatch(/^[A-Z0-9]{20}$/);
    expect(first.secrets.secretAccessKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(JSON.stringify([first.state, first.lines])).not.toContain(first.secrets.secretAccessKey);
    expect(first.lines.map((line) => line.message)).toContain("Created bucket shop-uploads");
    expect(driverOf().secretAttributeNames(resource)).toEqual(["accessKeyId", "secretAccessKey"]);

    const s3 = s3Of(first);
    try {
      await s3.send(
        new PutObjectCommand({ Bucket: "shop-uploads", Key: "receipts/1.txt", Body: "a teapot" }),
      );
      expect(await read(s3, "shop-uploads", "receipts/1.txt")).toBe("a teapot");
      expect((await s3.send(new GetBucketVersioningCommand({ Bucket: "shop-uploads" }))).Status).toBe(
        "Enabled",
      );

      // A redeploy: a new container on the same volume, the same address and keys, the object still there.
      const second = await deployed(resource, first.state);
      expect(second.state.container).not.toBe(first.state.container);
      expect(second.secrets).toEqual(first.secrets);
      expect(second.outputs).toEqual(first.outputs);
      expect(second.lines.map((line) => line.message)).not.toContain("Created bucket shop-uploads");
      expect(await read(s3, "shop-uploads", "receipts/1.txt")).toBe("a teapot");

      await destroyUntilDone(driverOf(), containerContext(resource, second.state));
      expect(await engine.engine.listContainers({ all: true, ...labelled(resource.id) })).toEqual([]);
      expect((await engine.engine.listVolumes(labelled(resource.id))).Volumes).toEqual([]);
    } finally {
      s3.destroy();
    }
  }, 240_000);
});
