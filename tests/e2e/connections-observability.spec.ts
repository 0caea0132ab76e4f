import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "../../platform/testing/provider-servers";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// A deploy and the forwarder's interval run at a fifth of their demo durations (ENGINE_TIME_SCALE), but the
// forwarder posts whole minutes only: the first point comes at the first minute boundary after the deployment,
// up to 60 s of real time later, plus one forwarding interval (12 s).
test.setTimeout(180_000);

const API_KEY = "dd-metrics-key-5678";

/** A Datadog site (its URL as DD_URL): the key validation and the metrics intake, both for API_KEY only. */
let datadog: TestServer;
test.beforeAll(async () => {
  const refused = { status: 403, body: { errors: ["Forbidden"] } };
  datadog = await startTestServer({
    "GET /api/v1/validate": (request) =>
      request.headers["dd-api-key"] === API_KEY ? { body: { valid: true } } : refused,
    "POST /api/v2/series": (request) =>
      request.headers["dd-api-key"] === API_KEY ? { status: 202, body: { errors: [] } } : refused,
  });
});
test.afterAll(async () => {
  await datadog.close();
});

/** The series Datadog received for `environment`'s services, by metric name. */
function seriesPostedFor(environment: string): string[] {
  return datadog.requests
    .filter((request) => request.path === "/api/v2/series" && request.body.includes(`env:${environment}`))
    .flatMap((request) => (JSON.parse(request.body) as { series: { metric: string }[] }).series)
    .map((series) => series.metric);
}

test("ada links Datadog to an environment: its services' metrics are posted, and the monitoring tab opens them in Datadog", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("metrics");
  const name = `Datadog ${environment}`;
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);

  await page.goto("/settings/connections/create/observability?kind=datadog");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Datadog site").fill(datadog.url);
  await page.getByLabel("API key").fill(API_KEY);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");

  // A deployed service has metrics to forward.
  await page.goto(`/env/${environment}/services/queue/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("metered-queue");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("metered-queue");
  const servicePage = new URL(page.url()).pathname;
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText("Completed", {
    timeout: 90_000,
  });

  // The environment's overview links it.
  await page.goto(`/env/${environment}`);
  await waitForHydration(page);
  const observability = page.getByRole("region", { name: "Observability" });
  await expect(observability).toContainText("No observability connection is linked.");
  await observability.getByLabel("Observability connection").selectOption({ label: `${name} (Datadog)` });
  await observability.getByRole("button", { name: "Link" }).click();
  const linked = observability.getByRole("list", { name: "Linked observability connections" });
  await expect(linked.getByRole("link", { name: `${name} (Datadog)` })).toBeVisible();

  // The forwarder posts the service's metrics, tagged with the environment, with the connection's key.
  await expect
    .poll(() => seriesPostedFor(environment), { timeout: 90_000 })
    .toEqual(expect.arrayContaining(["cloudconsole.cpu.utilization", "cloudconsole.latency"]));
  await page.reload();
  await expect(linked).toContainText(/Last forwarded/);

  // The service's monitoring tab opens the environment's metrics in Datadog.
  await page.goto(`${servicePage}?tab=monitoring`);
  const open = page.getByRole("link", { name: `Open in Datadog (${name})` });
  await expect(open).toHaveAttribute("target", "_blank");
  await expect(open).toHaveAttribute("href", new RegExp(`env(%3A|:)${environment}`));

  // The link is what uses the connection now.
  await page.goto("/settings/connections/list");
  await expect(page.getByTestId(`connection-${name}`)).toContainText(`Observability of ${environment}`);
});
