import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import type { ChangePlan } from "#contract/change-plans";
import { defaultServiceConfigs } from "#contract/service-configs";
import type { ServiceActionData } from "./action-data";
import { configFields, deployedService, fakePlatform, signedInRequest } from "./plan-test-support";

/*
 * A change's plan on the configuration tab: the plan loader the form asks as it changes, and "Save and deploy" when
 * the platform refuses a change that loses something (a replacement's data, an application's address) until the
 * service's name is typed: the action answers the plan and a confirmation field as the form's next step (no
 * JavaScript needed), then sends the typed name.
 */

const { action } = await import("~/routes/_app.env.$environmentName_.services.$serviceId._index");
const { loader } = await import("~/routes/_app.env.$environmentName_.services.$serviceId.plan");

const database = deployedService({
  id: "r1",
  name: "orders-db",
  serviceType: "database",
  config: { ...defaultServiceConfigs.database, storageGb: 30 },
});
const shrink: ChangePlan = {
  inPlace: [],
  replace: ["config.storageGb"],
  other: [],
  changes: [{ path: "config.storageGb", before: 30, after: 20 }],
  loses: ["its data", "its endpoint"],
  summary: "Replaces the service and deletes its data",
  confirmationRequired: true,
};

const shopConfig = {
  ...defaultApplicationConfig,
  source: { kind: "image", image: "nginx:1.27" },
  domain: { host: "shop.example.com", certificateId: "cert-1" },
};
const shop = deployedService({ id: "r2", name: "shop", serviceType: "application", config: shopConfig });
const newAddress: ChangePlan = {
  inPlace: ["config.domain.host"],
  replace: [],
  other: [],
  changes: [{ path: "config.domain.host", before: "shop.example.com", after: "" }],
  loses: ["its address"],
  summary: "Gives the service a new address",
  confirmationRequired: true,
};

/** "Save and deploy" of `service`'s configuration tab with `config`, and the fields of a plan step. */
async function saveAndDeploy(
  service: typeof database,
  config: Record<string, unknown>,
  extra: Record<string, string> = {},
) {
  const body = new URLSearchParams([
    ["intent", "save-config"],
    ["version", "3"],
    ...configFields(config),
    ...Object.entries(extra),
  ]);
  const request = await signedInRequest(`/env/production/services/${service.id}?tab=config`, { body });
  try {
    const answer = (await action({
      request,
      params: { environmentName: "production", serviceId: service.id },
      context: {},
    } as ActionFunctionArgs)) as unknown as { data: ServiceActionData; init: ResponseInit | null };
    return { data: answer.data, status: answer.init?.status ?? 200 };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { redirect: thrown.headers.get("Location"), status: thrown.status };
    throw thrown;
  }
}

/** The plan of the form's values, as the form asks for it while they change. */
async function planOfForm(service: typeof database, config: Record<string, unknown>) {
  const query = new URLSearchParams(configFields(config));
  const request = await signedInRequest(`/env/production/services/${service.id}/plan?${query}`);
  const answer = (await loader({
    request,
    params: { environmentName: "production", serviceId: service.id },
    context: {},
  } as LoaderFunctionArgs)) as unknown as { data: { plan: ChangePlan | null } };
  return answer.data.plan;
}

describe("Save and deploy of a change that replaces the service and deletes its data", () => {
  const shrunk = { ...database.config, storageGb: 20 };

  it("answers the plan and asks for the service's name instead of saving", async () => {
    const { puts, plans } = fakePlatform(database, shrink);
    const answer = await saveAndDeploy(database, shrunk);
    expect(answer.status).toBe(200);
    expect(answer.data?.form).toBe("config");
    expect(answer.data?.plan).toEqual({ plan: shrink });
    expect(plans).toEqual([{ config: expect.objectContaining({ storageGb: 20 }) }]);
    // The form keeps what the user typed, for the step that sends it again.
    expect(answer.data?.result?.initialValue).toMatchObject({ config: { storageGb: "20" } });
    expect(puts).toHaveLength(1);
  });

  it("says so when the name typed is not the service's", async () => {
    const { refusal } = fakePlatform(database, shrink);
    const answer = await saveAndDeploy(database, shrunk, { confirmation: "orders" });
    expect(answer.status).toBe(400);
    expect(answer.data?.plan?.confirmationError).toBe(refusal);
  });

  it("deploys once the service's name is typed", async () => {
    const { puts } = fakePlatform(database, shrink);
    const answer = await saveAndDeploy(database, shrunk, { confirmation: "orders-db" });
    expect(answer.data?.plan).toBeUndefined();
    expect(answer.status).toBe(200);
    expect(puts.at(-1)).toMatchObject({ confirmation: "orders-db", config: { storageGb: 20 } });
  });
});

describe("an application's configuration", () => {
  const withoutDomain = { ...shopConfig, domain: { host: "", certificateId: "" } };

  it("has its plan computed by the platform before saving, as the other types do", async () => {
    const { plans } = fakePlatform(shop, newAddress);
    expect(await planOfForm(shop, withoutDomain)).toEqual(newAddress);
    expect(plans).toEqual([{ config: expect.objectContaining({ domain: { host: "", certificateId: "" } }) }]);
  });

  it("asks for its name before deploying a change of its address", async () => {
    fakePlatform(shop, newAddress);
    const answer = await saveAndDeploy(shop, withoutDomain);
    expect(answer.data?.plan).toEqual({ plan: newAddress });
    // What was typed stays for the step that sends it again.
    expect(answer.data?.result?.initialValue).toMatchObject({ config: { source: { image: "nginx:1.27" } } });
  });
});
