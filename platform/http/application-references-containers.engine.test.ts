import { expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { apiErrorSchema } from "#contract/error-body";
import { defaultServiceConfigs } from "#contract/service-configs";
import { servicePaths } from "#contract/services";
import { setUpContainerApi } from "../testing/container-api";
import { setUpContainerEngine } from "../testing/container-engine";

/*
 * An application's `${{service.attribute}}` references on a container host are checked against the attributes the
 * containers driver gives the service (a RabbitMQ queue's connectionString, host, port...), not the simulated
 * cloud's (an SQS-like access key pair): nothing is deployed, the check is the application's creation's.
 */

const engine = setUpContainerEngine();
const platform = setUpContainerApi(engine);

const application = (attribute: string, service = "jobs") => ({
  serviceType: "application",
  name: `web-${service}-${attribute.toLowerCase()}`,
  launch: false,
  config: {
    ...defaultApplicationConfig,
    source: { kind: "image", image: "nginx:1.27" },
    envvars: [{ kind: "attribute", name: "SERVICE_URL", service, attribute }],
  },
});

it("accepts a queue's connectionString on a container host and refuses a name it does not have, listing those it has", async () => {
  const { environmentId } = await platform.createEnvironment("references-on-this-machine");
  const path = servicePaths.list(platform.tenantId, environmentId);
  const queue = await platform.call("POST", path, {
    serviceType: "queue",
    name: "jobs",
    launch: false,
    config: defaultServiceConfigs.queue,
  });
  expect(queue.status, await queue.clone().text()).toBe(201);

  const accepted = await platform.call("POST", path, application("connectionString"));
  expect(accepted.status, await accepted.clone().text()).toBe(201);

  // The simulated queue's access key: RabbitMQ on a container host has none.
  const refused = await platform.call("POST", path, application("accessKeyId"));
  expect(refused.status).toBe(400);
  expect(apiErrorSchema.parse(await refused.json()).fieldErrors).toEqual({
    "config.envvars.0.attribute": [
      "jobs has no attribute accessKeyId; it has password, connectionString, hostConnectionString, host, port, username, vhost",
    ],
  });

  // A file storage's outputs are referenced too: its bucket's URL on the network and from the host.
  const storage = await platform.call("POST", path, {
    serviceType: "file-storage",
    name: "uploads",
    launch: false,
    config: { ...defaultServiceConfigs["file-storage"], bucketName: "shop-uploads" },
  });
  expect(storage.status, await storage.clone().text()).toBe(201);
  for (const attribute of ["endpointUrl", "hostEndpointUrl", "secretAccessKey"]) {
    const response = await platform.call("POST", path, application(attribute, "uploads"));
    expect(response.status, await response.clone().text()).toBe(201);
  }
});
