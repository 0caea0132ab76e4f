import { Code, CopyButton, Group, Stack, Table, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SECRET_MASK } from "#contract/environments";
import type { Resource } from "#contract/services";
import { Button } from "~/components/button";
import { showToast } from "~/components/toaster";
import type { RevealedAttribute } from "./attribute-reveal";
import { serviceDetailsPaths } from "./paths";

/** The service's secret attributes: names only; each value is read from the platform when revealed. */
export function AttributesPanel({
  environmentName,
  service,
}: {
  environmentName: string;
  service: Resource;
}) {
  if (!service.secretAttributes.length) {
    return <Text c="dimmed">This service has no secret attributes.</Text>;
  }
  return (
    <Table aria-label="Secret attributes" maw={720}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Attribute</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {service.secretAttributes.map((attribute) => (
          <Table.Tr key={attribute}>
            <Table.Td ff="monospace">{attribute}</Table.Td>
            <Table.Td>
              <SecretAttribute
                environmentName={environmentName}
                serviceId={service.id}
                attribute={attribute}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function SecretAttribute({
  environmentName,
  serviceId,
  attribute,
}: {
  environmentName: string;
  serviceId: string;
  attribute: string;
}) {
  const fetcher = useFetcher<RevealedAttribute>();
  const [revealed, setRevealed] = useState(false);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (answer?.kind === "error") {
      showToast({ variant: "error", message: answer.message });
      setRevealed(false);
    }
  }, [answer]);

  const shown = revealed && answer?.kind === "value" ? answer.value : null;
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={`attribute-${attribute}`}>{shown ?? SECRET_MASK}</Code>
        {shown === null ? (
          <Button
            variant="ghost"
            size="small"
            loading={fetcher.state !== "idle"}
            aria-label={`Reveal ${attribute}`}
            onClick={() => {
              setRevealed(true);
              fetcher.load(serviceDetailsPaths.attribute(environmentName, serviceId, attribute));
            }}
          >
            Reveal
          </Button>
        ) : (
          <>
            <Button
              variant="ghost"
              size="small"
              aria-label={`Hide ${attribute}`}
              onClick={() => setRevealed(false)}
            >
              Hide
            </Button>
            <CopyButton value={shown}>
              {({ copied, copy }) => (
                <Button variant="ghost" size="small" aria-label={`Copy ${attribute}`} onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </Button>
              )}
            </CopyButton>
          </>
        )}
      </Group>
    </Stack>
  );
}
