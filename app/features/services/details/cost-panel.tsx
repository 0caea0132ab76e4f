import { Stack, Text } from "@mantine/core";
import type { CostEstimate } from "#contract/environments";
import { serviceTypeLabels } from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { CostEstimatePanel } from "~/features/environments/cost-estimate-panel";

type Loaded<T> = { kind: "ok"; value: T } | { kind: "error"; message: string };

/** The monthly cost of the service as it is configured now, with what it is made of. */
export function CostPanel({ service, cost }: { service: Resource; cost: Loaded<CostEstimate> }) {
  return (
    <Stack gap="md" maw={640}>
      <CostEstimatePanel
        title="Estimated monthly cost"
        loading={false}
        result={cost.kind === "ok" ? { kind: "estimate", estimate: cost.value } : cost}
      />
      <Text size="sm" c="dimmed">
        The estimate follows the {serviceTypeLabels[service.serviceType].toLowerCase()}&apos;s configuration
        (its size, count and storage) and its settings (instances, CPU and memory, volumes). Changing them on
        the Configuration or Settings tab changes the cost once deployed. Data transfer and requests are not
        included.
      </Text>
    </Stack>
  );
}
