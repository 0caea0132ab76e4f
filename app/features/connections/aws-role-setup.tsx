import { Alert, Anchor, Code, CopyButton, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { connectionKindSlugs } from "#contract/connections";
import { Button } from "~/components/button";

/** The AWS role flow's setup, or why it could not be loaded. */
export type RoleSetup =
  | { kind: "ok"; externalId: string; trustedAccountId: string; launchStackUrl: string }
  /** The operator has not set up role access: access keys are the way in. */
  | { kind: "unavailable"; message: string }
  | { kind: "error"; message: string };

/** The AWS role method: the external id to trust and the CloudFormation stack that creates the role. */
export function AwsRoleSetup({ setup }: { setup: RoleSetup }) {
  if (setup.kind === "unavailable") {
    return (
      <Alert color="gray" title="Role access is not set up">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{setup.message}</Text>
          <Anchor
            component={Link}
            to={`?${new URLSearchParams({ kind: connectionKindSlugs.AWS, method: "keys" })}`}
            size="sm"
          >
            Connect with access keys
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  if (setup.kind === "error") {
    return (
      <Alert color="red" title="The role setup could not be loaded">
        {setup.message}
      </Alert>
    );
  }
  return (
    <Paper withBorder p="md" role="region" aria-label="Role setup">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Create the role
        </Title>
        <Text size="sm">
          1.{" "}
          <Anchor href={setup.launchStackUrl} target="_blank" rel="noopener noreferrer">
            Launch the CloudFormation stack
          </Anchor>{" "}
          in your account. It creates the role your environments are deployed through, trusting account{" "}
          {setup.trustedAccountId} only when it presents your external id.
        </Text>
        <Text size="sm">The role may:</Text>
        <List size="sm" aria-label="What the role may do">
          <List.Item>
            Create, change and delete your environments&apos; AWS resources; it deletes databases, tables,
            Kubernetes clusters, functions, load balancers and networks only when they carry your
            organization&apos;s tag.
          </List.Item>
          <List.Item>
            Create roles for ECS tasks, EKS clusters and nodes and Lambda functions, with only the AWS managed
            policies they need, and hand them only to those services.
          </List.Item>
          <List.Item>
            Read their logs and metrics, read Secrets Manager secrets (the passwords it generates for
            databases and caches live there), and list and describe the account&apos;s resources for Terraform
            exports. It never reads the objects in your buckets or the items in your tables.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          A role created with the earlier read-only template cannot deploy: update its stack with this
          template. The Terraform tool&apos;s stack creates a separate role that may only list and describe.
        </Text>
        <Group gap="xs">
          <Text size="sm">External id:</Text>
          <Code data-testid="external-id">{setup.externalId}</Code>
          <CopyButton value={setup.externalId}>
            {({ copied, copy }) => (
              <Button variant="ghost" size="small" onClick={copy} aria-label="Copy the external id">
                {copied ? "Copied" : "Copy"}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">2. Copy the role ARN from the stack&apos;s outputs into Role ARN above.</Text>
      </Stack>
    </Paper>
  );
}
