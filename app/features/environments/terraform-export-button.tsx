import { Alert, Group, Stack, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { Button } from "~/components/button";
import { usePolling } from "~/hooks/use-polling";
import { relativeDuration } from "~/features/terraform/relative-duration";
import { environmentPagePaths } from "./paths";
import {
  TERRAFORM_EXPORT_POLL_MS,
  terraformExportView,
  type TerraformExportResult,
} from "./terraform-export";

/**
 * 'Export as Terraform' of an AWS environment: starts the export, shows progress while it runs (polling every
 * 2 s), then a download button with how long the link stays valid; a refusal or failure in plain words.
 */
export function ExportTerraformButton({ environmentName }: { environmentName: string }) {
  const start = useFetcher<TerraformExportResult>({ key: `terraform-export:${environmentName}` });
  const poll = useFetcher<TerraformExportResult>();
  const view = terraformExportView(start.data, poll.data);
  const starting = start.state !== "idle";
  usePolling(
    () => {
      if (view.phase === "running" && poll.state === "idle") {
        poll.load(environmentPagePaths.terraformExport(environmentName, view.exportId));
      }
    },
    { intervalMs: TERRAFORM_EXPORT_POLL_MS, enabled: view.phase === "running", leading: false },
  );

  return (
    <Stack gap={4} align="flex-end" data-testid="terraform-export">
      <Group gap="sm">
        {view.phase === "ready" ? (
          <Button component="a" href={view.downloadURL} target="_blank" rel="noopener noreferrer">
            Download Terraform
          </Button>
        ) : null}
        <start.Form method="post" action={environmentPagePaths.terraformExport(environmentName)}>
          <Button
            type="submit"
            variant={view.phase === "ready" ? "secondary" : "primary"}
            loading={starting || view.phase === "running"}
          >
            {view.phase === "running" ? "Exporting Terraform" : "Export as Terraform"}
          </Button>
        </start.Form>
      </Group>
      {view.phase === "running" ? (
        <Text size="xs" c="dimmed" role="status">
          Reading what the platform created in AWS. This may take a few minutes.
        </Text>
      ) : null}
      {view.phase === "ready" ? (
        <Text size="xs" c="dimmed" role="status">
          The Terraform archive is available for download for {relativeDuration(view.expiresAt, Date.now())}.
        </Text>
      ) : null}
      {view.phase === "failed" ? (
        <Alert color="red" title="Export as Terraform failed" maw={480} role="alert">
          {view.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
