import { CreateAccessKeyCommand, CreateUserCommand, IAMClient } from "@aws-sdk/client-iam";
import { expect, type Page } from "@playwright/test";
import { connectionPages } from "../../contract/connections";
import { appUrl, motoEndpoint } from "../../playwright.config";
import { createEnvironment, uniqueEnvironmentName } from "./environments";
import { waitForHydration } from "./hydration";
import { motoCredentials } from "./moto-server";
import { signIn } from "./sign-in";

/** moto_server (playwright.config.ts) stands in for the user's AWS account. */
export const motoAws = { endpoint: motoEndpoint, region: "us-east-1", credentials: motoCredentials };

/** A name no other test or run uses. */
export function unique(purpose: string) {
  return `${purpose}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** An IAM user's access key in moto's account: what a user pastes for the access-keys method. */
export async function createAccessKey() {
  const iam = new IAMClient(motoAws);
  const userName = unique("deployer");
  await iam.send(new CreateUserCommand({ UserName: userName }));
  const { AccessKey } = await iam.send(new CreateAccessKeyCommand({ UserName: userName }));
  if (!AccessKey?.AccessKeyId || !AccessKey.SecretAccessKey) throw new Error("moto made no access key");
  return { accessKeyId: AccessKey.AccessKeyId, secretAccessKey: AccessKey.SecretAccessKey };
}

/** Connects moto's account with a fresh access key through the connections screens; ends on the connection's page. */
export async function connectAwsWithAccessKeys(
  page: Page,
  accountName: string,
  key: { accessKeyId: string; secretAccessKey: string },
) {
  await page.goto("/settings/connections");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Connect Cloud accounts" }).click();
  await page.getByRole("listitem").filter({ hasText: "Amazon Web Services" }).click();
  await page.getByRole("tab", { name: "Access keys" }).click();
  await expect(page.getByLabel("Secret access key")).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Name").fill(accountName);
  await page.getByLabel("AWS account id").fill("1234-5678-9012");
  await page.getByLabel("Access key id").fill(key.accessKeyId);
  await expect(page.getByLabel("Secret access key")).toHaveAttribute("type", "password");
  await page.getByLabel("Secret access key").fill(key.secretAccessKey);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(accountName);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
}

/**
 * Connects moto's account with a fresh access key for a spec's set-up (signed in already), without the screens:
 * one request to the create page's action with the page's session, as its form would post it. Specs about the
 * connection screens (connections-aws.spec.ts) use connectAwsWithAccessKeys. Answers the connection's id.
 */
export async function connectAwsThroughApi(
  page: Page,
  accountName: string,
  key: { accessKeyId: string; secretAccessKey: string },
): Promise<string> {
  const response = await page.request.post(connectionPages.create("cloud-provider"), {
    form: {
      kind: "AWS",
      method: "keys",
      name: accountName,
      "fields.ACCOUNT_ID": "1234-5678-9012",
      "fields.ACCESS_KEY_ID": key.accessKeyId,
      "fields.SECRET_ACCESS_KEY": key.secretAccessKey,
      "fields.REGION": motoAws.region,
    },
    // The app refuses writes from other origins (app/cross-origin.server.ts).
    headers: { Origin: appUrl },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  // The connection's page: connectionPages.view("AWS", id).
  const location = response.headers()["location"] ?? "";
  const id = location.split("/").at(-1) ?? "";
  expect(location).toBe(connectionPages.view("AWS", id));
  return id;
}

/**
 * Ada signed in, with a fresh environment of her own in moto's account (through a fresh access key's connection),
 * set up without the screens; answers the environment's name.
 */
export async function setUpAwsEnvironment(page: Page, purpose: string): Promise<string> {
  const environment = uniqueEnvironmentName(purpose);
  await signIn(page, "ada@example.com");
  const cloudConnectionId = await connectAwsThroughApi(
    page,
    `AWS ${unique(purpose)}`,
    await createAccessKey(),
  );
  await createEnvironment(page, environment, { cloudConnectionId, open: false });
  return environment;
}

/** Connects an ECR registry through the AWS connection `accountName` (already connected); ends on its page. */
export async function connectEcrRegistry(page: Page, registryName: string, accountName: string) {
  await page.goto("/settings/connections/create/container-registry");
  await waitForHydration(page);
  await page.getByRole("listitem").filter({ hasText: "Amazon ECR" }).click();
  await expect(page.getByRole("tab", { name: "Through an AWS connection" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await waitForHydration(page);
  await page.getByLabel("Name").fill(registryName);
  const account = page.getByRole("textbox", { name: "AWS connection", exact: true });
  await account.click();
  await page.getByRole("option", { name: accountName }).click();
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(registryName);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
}
