import { createHmac } from "node:crypto";
import {
  BatchDeleteImageCommand,
  CreateRepositoryCommand,
  ECRClient,
  PutImageCommand,
} from "@aws-sdk/client-ecr";
import { expect, test, type Page } from "@playwright/test";
import { startFakeGitHub, type TestServer } from "../../platform/testing/provider-servers";
import {
  connectAwsWithAccessKeys,
  connectEcrRegistry,
  createAccessKey,
  motoAws,
  unique,
} from "../setup/aws-connection";
import { chooseOption } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { openApplicationCreatePage, setUpApplicationEnvironment } from "../setup/applications";

// Each test connects what its source needs, creates its own environment and waits for deployments (scaled by
// ENGINE_TIME_SCALE): a slow machine needs minutes.
test.setTimeout(240_000);

const GITHUB_TOKEN = "github_pat_acme_sources_0123456789";
const DOCKERFILE = [
  "FROM node:20-alpine AS build",
  "WORKDIR /app",
  "COPY package.json package-lock.json ./",
  "RUN npm ci",
  "COPY . .",
  "RUN npm run build",
  "FROM nginx:1.27",
  "COPY --from=build /app/dist /usr/share/nginx/html",
].join("\n");

/** GitHub's REST API for the GitHub connection (its URL as the connection's API URL). */
let github: TestServer;
test.beforeAll(async () => {
  github = await startFakeGitHub({
    token: GITHUB_TOKEN,
    organizations: {
      "acme-shop": {
        repositories: [{ name: "storefront", branches: ["main"], files: { Dockerfile: DOCKERFILE } }],
      },
    },
  });
});
test.afterAll(async () => {
  await github.close();
});

async function chooseSource(page: Page, label: string) {
  await page.getByRole("radiogroup", { name: "Source" }).getByText(label, { exact: true }).click();
}

const stageOf = (page: Page) => page.getByTestId("service-title").locator("xpath=..");

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
  await waitForHydration(page);
}

/** An image in moto's ECR, as a CI pipeline would have pushed it. */
async function pushImage(ecr: ECRClient, repositoryName: string, tag: string, layer: string) {
  const manifest = {
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: {
      mediaType: "application/vnd.docker.container.image.v1+json",
      size: 7023,
      digest: `sha256:${layer.repeat(64).slice(0, 64)}`,
    },
    layers: [],
  };
  const { image } = await ecr.send(
    new PutImageCommand({ repositoryName, imageManifest: JSON.stringify(manifest), imageTag: tag }),
  );
  return image?.imageId?.imageDigest ?? "";
}

/** Creates a GitHub connection to the test server; ends on its page. */
async function connectGitHub(page: Page, name: string) {
  await page.goto("/settings/connections/create/github-app");
  await waitForHydration(page);
  await page
    .getByRole("listitem")
    .filter({ hasText: /^GitHub/ })
    .click();
  await expect(page.getByLabel("Organization")).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Organization").fill("acme-shop");
  await page.getByLabel("Access token").fill(GITHUB_TOKEN);
  await page.getByLabel("API URL").fill(github.url);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
}

/** Creates and deploys an application from the GitHub test server's storefront; ends on its details page. */
async function deployFromGitHub(page: Page, environment: string, connectionName: string, name: string) {
  await openApplicationCreatePage(page, environment);
  await chooseSource(page, "GitHub repository");
  await chooseOption(page, "GitHub connection", connectionName);
  await chooseOption(page, "Repository", "storefront");
  await chooseOption(page, "Branch", "main");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(name);
  await waitForHydration(page);
}

test("an image from the connected ECR registry deploys; a tag missing from ECR fails with manifest unknown", async ({
  page,
}) => {
  const ecr = new ECRClient(motoAws);
  const repository = unique("shop");
  await ecr.send(new CreateRepositoryCommand({ repositoryName: repository }));
  const digest = await pushImage(ecr, repository, "1.4.2", "a");
  await pushImage(ecr, repository, "1.5.0", "b");

  const environment = await setUpApplicationEnvironment(page, "app-ecr");
  const accountName = `AWS ${unique("apps")}`;
  const registryName = `ECR ${unique("apps")}`;
  await connectAwsWithAccessKeys(page, accountName, await createAccessKey());
  await connectEcrRegistry(page, registryName, accountName);

  await openApplicationCreatePage(page, environment);
  await chooseSource(page, "Image from a connected registry");
  await chooseOption(page, "Registry", registryName);
  await chooseOption(page, "Repository", repository);
  await chooseOption(page, "Tag", "1.4.2");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("shop");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("shop");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });
  await openTab(page, "Logs");
  const live = page.getByRole("log", { name: "Live logs" });
  await expect(live).toContainText(`${repository}:1.4.2`);
  await expect(live).toContainText(`Digest: ${digest}`);

  // A tag listed when chosen, gone from ECR when the deployment pulls it.
  await openApplicationCreatePage(page, environment);
  await chooseSource(page, "Image from a connected registry");
  await chooseOption(page, "Registry", registryName);
  await chooseOption(page, "Repository", repository);
  await chooseOption(page, "Tag", "1.5.0");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("shop-next");
  await ecr.send(
    new BatchDeleteImageCommand({ repositoryName: repository, imageIds: [{ imageTag: "1.5.0" }] }),
  );
  ecr.destroy();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("shop-next");
  const failure = page.getByTestId("service-failure");
  await expect(failure).toContainText("MANIFEST_UNKNOWN: manifest unknown", { timeout: 120_000 });
  await expect(failure).toContainText(`${repository}:1.5.0`);
});

test("an application from a GitHub repository is built through the test server, its build logs shown", async ({
  page,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-github");
  const connectionName = `GitHub ${unique("build")}`;
  await connectGitHub(page, connectionName);
  await deployFromGitHub(page, environment, connectionName, "storefront");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });

  await openTab(page, "Logs");
  const live = page.getByRole("log", { name: "Live logs" });
  await expect(live).toContainText("Cloning acme-shop/storefront at main");
  await expect(live).toContainText('#0 building with "default" instance using docker driver');
  await expect(live).toContainText("RUN npm ci");
  await expect(live).toContainText("successfully rolled out");
});

test("deploy on push: the secret is shown once, a signed push deploys its commit, an unsigned one is refused", async ({
  page,
  request,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-push");
  const connectionName = `GitHub ${unique("push")}`;
  await connectGitHub(page, connectionName);
  await deployFromGitHub(page, environment, connectionName, "shop-web");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });

  await openTab(page, "Configuration");
  const panel = page.getByRole("region", { name: "Deploy on push" });
  await expect(panel.getByTestId("deploy-on-push-status")).toHaveText("Off");
  await panel.getByRole("button", { name: "Turn on deploy on push" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Deploy on push is on" })).toBeVisible();
  await expect(panel.getByTestId("deploy-on-push-status")).toHaveText("On");
  const secret = (await panel.getByTestId("deploy-on-push-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  const webhookUrl = (await panel.getByTestId("deploy-on-push-url").textContent()) ?? "";
  expect(webhookUrl).toMatch(/\/api\/webhooks\/github\/[0-9a-f-]{36}$/);
  await expect(panel).toContainText("Builds acme-shop/storefront on branch main");

  // The secret is never in the page again: a reload shows the address only.
  await page.reload();
  await waitForHydration(page);
  await expect(panel.getByTestId("deploy-on-push-url")).toHaveText(webhookUrl);
  await expect(panel.getByTestId("deploy-on-push-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  const sha = "4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39";
  const body = JSON.stringify({
    ref: "refs/heads/main",
    after: sha,
    repository: { full_name: "acme-shop/storefront" },
    pusher: { name: "grace" },
    head_commit: {
      id: sha,
      message: "Show prices with VAT\n\nThe checkout asked for it.",
      author: { name: "Grace" },
    },
  });
  const headers = {
    "Content-Type": "application/json",
    "X-GitHub-Event": "push",
    "X-GitHub-Delivery": crypto.randomUUID(),
  };
  const unsigned = await request.post(webhookUrl, { headers, data: body });
  expect(unsigned.status()).toBe(401);
  expect(await unsigned.text()).toContain("The payload is not signed");
  const forged = await request.post(webhookUrl, {
    headers: {
      ...headers,
      "X-GitHub-Delivery": crypto.randomUUID(),
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", "not-the-secret").update(body).digest("hex")}`,
    },
    data: body,
  });
  expect(forged.status()).toBe(401);

  const signed = await request.post(webhookUrl, {
    headers: {
      ...headers,
      "X-GitHub-Delivery": crypto.randomUUID(),
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
    },
    data: body,
  });
  expect(signed.status()).toBe(202);
  expect(await signed.json()).toMatchObject({ outcome: "deployment-queued" });

  await page.reload();
  await waitForHydration(page);
  await expect(panel.getByTestId("deploy-on-push-last")).toContainText("4f2a9c1 on main by grace");
  await expect(panel.getByTestId("deploy-on-push-last")).toContainText("Show prices with VAT");
  await openTab(page, "History");
  const newest = page.getByTestId("history-entry").first();
  await expect(newest).toContainText("Commit 4f2a9c1 on main: Show prices with VAT");
  await expect(newest).toContainText("grace (GitHub push)");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });
  await openTab(page, "Logs");
  await expect(page.getByRole("log", { name: "Live logs" })).toContainText(
    "Cloning acme-shop/storefront at main (4f2a9c1 Show prices with VAT)",
  );

  // A commit named by hand (as `cloud-console deploy --ref` does): GitHub's "no such commit" at the field, the
  // branch's head deployed as the member's own.
  await openTab(page, "Configuration");
  const deployCommit = page.getByRole("region", { name: "Deploy a commit" });
  const ref = deployCommit.getByRole("textbox", { name: "Commit, branch or tag" });
  await ref.fill("0badc0de");
  await deployCommit.getByRole("button", { name: "Deploy commit" }).click();
  await expect(deployCommit).toContainText(
    'GitHub has no commit, branch or tag "0badc0de" in acme-shop/storefront, or the token cannot see it.',
  );
  await expect(ref).toHaveValue("0badc0de");
  await ref.fill("main");
  await deployCommit.getByRole("button", { name: "Deploy commit" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Update storefront on main" })).toContainText(
    /Commit [0-9a-f]{7} on main: Update storefront on main\. Deployment queued\./,
  );
  await openTab(page, "History");
  await expect(page.getByTestId("history-entry").first()).toContainText("on main: Update storefront on main");
});

test("the image is changed on the configuration tab and deployed with a domain, after its plan, then the first version is rolled back to", async ({
  page,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-edit");
  // The environment's certificate for the domain the application will answer on.
  await page.goto(`/env/${environment}/services/tls/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("shop-cert");
  await page.getByLabel("Domain").fill("shop.example.com");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("shop-cert");

  await openApplicationCreatePage(page, environment);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });

  await openTab(page, "Configuration");
  const image = page.getByRole("textbox", { name: "Image", exact: true });
  await expect(image).toHaveValue("nginx:1.27");

  // A bad value is refused on its field and kept; a domain asks for its certificate and says none covers it.
  await image.fill("Nginx Latest");
  await page.getByRole("textbox", { name: "Domain" }).fill("blog.example.com");
  await expect(page.getByTestId("certificate-none")).toContainText(
    "No certificate of this environment covers blog.example.com",
  );
  await page.getByRole("button", { name: "Save and deploy" }).click();
  await expect(
    page.getByText("Image must be an image reference such as nginx:1.27 or ghcr.io/org/app:tag"),
  ).toBeVisible();
  await expect(page.getByText("Choose the TLS certificate that covers the domain")).toBeVisible();
  await expect(image).toHaveValue("Nginx Latest");

  // The certificate that covers the domain is found and chosen.
  await page.getByRole("textbox", { name: "Domain" }).fill("shop.example.com");
  await expect(page.getByText(/^Covers shop\.example\.com: shop\.example\.com \(/)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "TLS certificate" })).toHaveValue(/^shop\.example\.com \(/);
  await image.fill("nginx:1.28");
  // A domain moves the application's address: the plan says so before saving, and the name is typed to deploy.
  const preview = page.getByTestId("change-plan-preview");
  await expect(preview).toContainText("Deploying: Gives the service a new address (");
  await expect(preview).toContainText("Domain: none → shop.example.com");
  await expect(preview).toContainText("Image: nginx:1.27 → nginx:1.28");
  await page.getByRole("button", { name: "Save and deploy" }).click();
  const plan = page.getByTestId("change-plan");
  await expect(plan).toContainText("This change gives the service a new address");
  await expect(plan).toContainText("Image: nginx:1.27 → nginx:1.28");
  await plan.getByLabel("Type web to confirm").fill("web");
  await plan.getByRole("button", { name: "Deploy with the new address" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Configuration saved; deploying" })).toBeVisible();
  await expect(stageOf(page)).not.toContainText("Completed");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });
  await expect(page.getByTestId("service-endpoint")).toContainText("https://shop.example.com");
  // The form shows the saved version, as a reload does.
  await expect(image).toHaveValue("nginx:1.28");
  await expect(page.getByRole("textbox", { name: "Domain" })).toHaveValue("shop.example.com");
  await page.reload();
  await waitForHydration(page);
  await expect(image).toHaveValue("nginx:1.28");
  await expect(page.getByRole("textbox", { name: "Domain" })).toHaveValue("shop.example.com");

  await openTab(page, "History");
  const entries = page.getByTestId("history-entry");
  await expect(entries.first()).toContainText("Running version");
  await entries
    .filter({ hasText: "Create" })
    .getByRole("button", { name: "Roll back to this version" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Roll back to this version" });
  await expect(dialog).toContainText("Version 1 (nginx:1.27)");
  const diff = dialog.getByRole("table", { name: "Changes against the running version" });
  await expect(diff).toContainText("nginx:1.28");
  await expect(diff).toContainText("nginx:1.27");
  await dialog.getByRole("button", { name: "Roll back", exact: true }).click();

  await expect(page.getByRole("alert").filter({ hasText: "Rolling back to version 1" })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(entries.first()).toContainText("Rollback");
  await expect(stageOf(page)).toContainText("Completed", { timeout: 150_000 });
  await openTab(page, "Configuration");
  await expect(page.getByRole("textbox", { name: "Image", exact: true })).toHaveValue("nginx:1.27");
});
