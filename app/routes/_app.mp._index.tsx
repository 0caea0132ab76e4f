import { Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { MetaFunction } from "@remix-run/node";
import { Button } from "~/components/button";
import { cloudConnectionPaths } from "~/features/terraform/paths";

export const meta: MetaFunction = () => [{ title: "Marketplace · Cloud Console" }];

/** SPEC §2.2 marketplace (/mp): the tools the product offers. */
export default function Marketplace() {
  return (
    <Stack gap="md">
      <Title order={2}>Marketplace</Title>
      <Text c="dimmed">Tools that work with the infrastructure you already have.</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm" h="100%" justify="space-between">
            <Stack gap={4}>
              <Title order={3} size="h4">
                Generate Terraform
              </Title>
              <Text size="sm" c="dimmed">
                Scan an AWS account with a read-only role and download its infrastructure as Terraform, ready
                to import.
              </Text>
            </Stack>
            <Button component={Link} to={cloudConnectionPaths.generateTerraform} variant="secondary">
              Generate Terraform
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
