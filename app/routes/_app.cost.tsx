import { Stack, Text, Title } from "@mantine/core";
import type { MetaFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { CostTabs } from "~/features/cost/cost-tabs";

export const meta: MetaFunction = () => [{ title: "Cost · Cloud Console" }];

/** What the organization spends (SPEC §2.2 Cost): the overview, the cloud and Kubernetes breakdowns, budgets. */
export default function CostLayout() {
  return (
    <Stack gap="md">
      <Stack gap={0}>
        <Title order={2}>Cost</Title>
        <Text c="dimmed" size="sm">
          What the organization&apos;s services cost, accrued hour by hour at the catalogue&apos;s prices (US
          dollars, UTC days).
        </Text>
      </Stack>
      <CostTabs />
      <Outlet />
    </Stack>
  );
}
