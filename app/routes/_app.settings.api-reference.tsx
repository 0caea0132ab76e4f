import { Anchor, Badge, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { referenceOf } from "~/features/api-reference/reference";
import { getOpenApiDocument } from "~/platform/openapi.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "API reference · Cloud Console" }];

/** The platform API's reference, shaped from its OpenAPI document on the server: the page ships text, no library. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const document = await getOpenApiDocument(api).catch((error: unknown) =>
    throwRouteError(error, undefined, headers),
  );
  const server = document.servers[0]?.url ?? "";
  return data(
    {
      tenantId,
      server,
      documentUrl: `${server}/api/openapi.json`,
      sections: referenceOf(document),
    },
    { headers },
  );
}

const methodColors: Record<string, string> = {
  GET: "blue",
  POST: "green",
  PUT: "orange",
  PATCH: "yellow",
  DELETE: "red",
};

export default function ApiReference() {
  const { tenantId, server, documentUrl, sections } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={3}>API reference</Title>
        <Text>
          Every call of the platform API at <Code>{server}</Code>, generated from the platform itself. Send a
          token as <Code>Authorization: Bearer &lt;token&gt;</Code>; each operation names the permission it
          needs. The machine-readable description (OpenAPI 3.1):{" "}
          <Anchor href={documentUrl}>{documentUrl}</Anchor>.
        </Text>
        <Text>
          This organization's id, for <Code>{"{tenantId}"}</Code> and the command-line client&apos;s{" "}
          <Code>--organization</Code>: <Code>{tenantId}</Code>
        </Text>
      </Stack>
      {sections.map((section) => (
        <Stack key={section.tag} gap="xs" component="section" aria-label={section.tag}>
          <Title order={4} tt="capitalize">
            {section.tag}
          </Title>
          {section.operations.map((operation) => (
            <details key={`${operation.method} ${operation.path}`} id={operation.id}>
              <summary>
                <Group gap="xs" display="inline-flex" wrap="nowrap">
                  <Badge color={methodColors[operation.method] ?? "gray"} variant="light" w={70}>
                    {operation.method}
                  </Badge>
                  <Code>{operation.path}</Code>
                  <Text size="sm" c="dimmed">
                    {operation.permission}
                  </Text>
                </Group>
              </summary>
              <Stack gap="xs" pl="md" py="xs">
                {operation.parameters.length > 0 && (
                  <Table withTableBorder>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Parameter</Table.Th>
                        <Table.Th>In</Table.Th>
                        <Table.Th>Type</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {operation.parameters.map((parameter) => (
                        <Table.Tr key={`${parameter.in} ${parameter.name}`}>
                          <Table.Td>
                            {parameter.name}
                            {parameter.required ? "" : " (optional)"}
                          </Table.Td>
                          <Table.Td>{parameter.in}</Table.Td>
                          <Table.Td>
                            <Code>{parameter.type}</Code>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
                {operation.request && (
                  <>
                    <Text fw={600}>Request body</Text>
                    <Code block>{operation.request}</Code>
                  </>
                )}
                {operation.responses.map((response) => (
                  <Stack key={response.status} gap={4}>
                    <Text fw={600}>
                      {response.status === "default" ? "Errors" : response.status} · {response.description}
                    </Text>
                    {response.body && <Code block>{response.body}</Code>}
                  </Stack>
                ))}
              </Stack>
            </details>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
