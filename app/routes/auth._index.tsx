import { Anchor, Center, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { completeLogin } from "~/auth/auth.server";

/** /auth: the sign-in callback. On success it redirects; otherwise it says what went wrong. */
export async function loader({ request }: LoaderFunctionArgs) {
  const failure = await completeLogin(request);
  return data(failure, { status: 400 });
}

export default function SignInFailed() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <Title order={1}>Sign-in did not complete</Title>
        <Text role="alert">{message}</Text>
        <Anchor href="/auth/login">Sign in again</Anchor>
      </Stack>
    </Center>
  );
}
