import { Center, Paper, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * The branded, bordered frame of the pages outside the application shell (organization creation, approval,
 * cloud connection). `maxWidth` widens it for content such as the 854 px Terraform generation card.
 */
export function BrandedLayout({ children, maxWidth = 560 }: { children: ReactNode; maxWidth?: number }) {
  return (
    <Center mih="100vh" p="xl" bg="gray.0">
      <Stack gap="lg" w="100%" maw={maxWidth}>
        <Text fw={700} fz="xl" c="purple" ta="center">
          Cloud Console
        </Text>
        <Paper withBorder radius="md" p="xl" shadow="xs">
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}
