import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";

export function StatusPage({ code, title, message }: { code: string; title: string; message: string }) {
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="md" ta="center" maw={480}>
        <Text c="purple" fw={700} fz={48} lh={1}>
          {code}
        </Text>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to="/">
          Take me home
        </Button>
      </Stack>
    </Center>
  );
}
