import { expect, test, type Page } from "@playwright/test";
import { zipSync } from "fflate";
import { chooseOption, createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// Each test signs in and creates its own environment first (through the create page's action).
test.setTimeout(90_000);

async function openCreatePage(page: Page, environment: string, serviceType: string, title: string) {
  await page.goto(`/env/${environment}/services/${serviceType}/create`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
}

/** Submits with Create or Save and waits for the new service's details page and the toast. */
async function submitAndExpectDetails(page: Page, button: "Create" | "Save", name: string, toast: string) {
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page).toHaveURL(/\/services\/[^/]+$/);
  await expect(page.getByTestId("service-title")).toHaveText(name);
  await expect(page.getByRole("alert").filter({ hasText: toast })).toBeVisible();
}

async function setUp(page: Page, purpose: string) {
  const environment = uniqueEnvironmentName(purpose);
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  return environment;
}

test("a database is created with another engine, its version following the engine", async ({ page }) => {
  const environment = await setUp(page, "svc-db");
  await openCreatePage(page, environment, "database", "Create database");
  await expect(page.getByRole("region", { name: "Estimated monthly cost" })).toContainText("$");

  await page.getByRole("textbox", { name: "Name", exact: true }).fill("orders-db");
  await chooseOption(page, "Engine", "MySQL");
  await expect(page.getByRole("textbox", { name: "Version", exact: true })).toHaveValue("8.4");
  await page.getByLabel("Storage (GB)").fill("100");
  await submitAndExpectDetails(page, "Create", "orders-db", "Creating orders-db");
});

test("a cache is saved as a draft", async ({ page }) => {
  const environment = await setUp(page, "svc-cache");
  await openCreatePage(page, environment, "cache", "Create cache");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("sessions");
  await chooseOption(page, "Engine", "Valkey");
  await expect(page.getByRole("textbox", { name: "Version", exact: true })).toHaveValue("8.0");
  await submitAndExpectDetails(page, "Save", "sessions", "Service saved as a draft");
});

test("a queue is created, and a second one with its name is refused on the name field", async ({ page }) => {
  const environment = await setUp(page, "svc-queue");
  await openCreatePage(page, environment, "queue", "Create queue");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("jobs");
  await chooseOption(page, "Queue type", "FIFO");
  await submitAndExpectDetails(page, "Create", "jobs", "Creating jobs");

  await openCreatePage(page, environment, "queue", "Create queue");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("jobs");
  await page.getByLabel("Message retention (days)").fill("9");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByText("A service with this name already exists in this environment")).toBeVisible();
  await expect(page).toHaveURL(/\/services\/queue\/create$/);
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("jobs");
  await expect(page.getByLabel("Message retention (days)")).toHaveValue("9");
});

test("validation messages show on the fields and what was typed stays", async ({ page }) => {
  const environment = await setUp(page, "svc-valid");
  await openCreatePage(page, environment, "database", "Create database");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Orders DB");
  await page.getByLabel("Storage (GB)").fill("5");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByText("Storage (GB) must be between 20 and 16384")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("Orders DB");
  await expect(page.getByLabel("Storage (GB)")).toHaveValue("5");
  await expect(page).toHaveURL(/\/services\/database\/create$/);
  // The estimate waits for a valid configuration.
  await expect(page.getByRole("region", { name: "Estimated monthly cost" })).toContainText(
    "Complete the configuration to see an estimate.",
  );

  // Without the archive a function cannot be created.
  await openCreatePage(page, environment, "serverless", "Create serverless function");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("thumbnailer");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByText("Upload a function archive (.zip)")).toBeVisible();
});

test("a serverless function is created from an uploaded zip", async ({ page }) => {
  const environment = await setUp(page, "svc-fn");
  await openCreatePage(page, environment, "serverless", "Create serverless function");
  const fileInput = page.locator('input[type="file"]');

  await fileInput.setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not a zip"),
  });
  await expect(page.getByText("The file must be a zip archive")).toBeVisible();

  const archive = zipSync({
    "index.js": new TextEncoder().encode("exports.handler = async () => ({ statusCode: 200 });\n"),
  });
  await fileInput.setInputFiles({
    name: "function.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(archive),
  });
  const uploaded = page.getByRole("status", { name: "Uploaded archive" });
  await expect(uploaded).toContainText("function.zip");
  await expect(uploaded).toContainText(`${archive.byteLength} B uploaded`);

  await page.getByRole("textbox", { name: "Name", exact: true }).fill("thumbnailer");
  await chooseOption(page, "Runtime", "python3.13");
  await page.getByLabel("Handler").fill("main.handler");
  await submitAndExpectDetails(page, "Create", "thumbnailer", "Creating thumbnailer");
});

test("a TLS certificate is created with alternative names", async ({ page }) => {
  const environment = await setUp(page, "svc-tls");
  await openCreatePage(page, environment, "tls", "Create tls certificate");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("site-cert");
  await page.getByLabel("Domain").fill("example.com");
  const alternativeNames = page.getByLabel("Alternative names");
  await alternativeNames.fill("www.example.com, Bad_Name");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByText(/Bad_Name: Alternative name must be a lowercase domain name/)).toBeVisible();
  await expect(alternativeNames).toHaveValue("www.example.com, Bad_Name");

  await alternativeNames.fill("www.example.com\nshop.example.com");
  await submitAndExpectDetails(page, "Create", "site-cert", "Creating site-cert");
});

test("an unknown service type has no create page", async ({ page }) => {
  const environment = await setUp(page, "svc-404");
  const response = await page.goto(`/env/${environment}/services/mainframe/create`);
  expect(response?.status()).toBe(404);
});
