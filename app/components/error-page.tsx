import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useEffect } from "react";

/** SPEC §2.7 error boundary page. */
export function ErrorPage({ home = "/" }: { home?: string }) {
  const error = useRouteError();
  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error(error);
  }, [error]);
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="md" maw={480} ta="center">
        <Title order={1}>Oops! Something went wrong</Title>
        <Text c="dimmed">Refresh the page and try again.</Text>
        <Button component={Link} to={home} reloadDocument>
          Take me home
        </Button>
      </Stack>
    </Center>
  );
}
