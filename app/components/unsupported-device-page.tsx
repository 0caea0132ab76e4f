import { Center, Stack, Text, Title } from "@mantine/core";

/** SPEC §1: what phones and tablets see instead of the app. */
export function UnsupportedDevicePage() {
  return (
    <Center mih="100vh" p="lg" data-testid="unsupported-device-page">
      <Stack align="center" gap="md" maw={440} ta="center">
        <Title order={1} fz={24}>
          Cloud Console is not available on phones and tablets
        </Title>
        <Text>Please use a computer: open Cloud Console in the browser of a laptop or desktop computer.</Text>
      </Stack>
    </Center>
  );
}
