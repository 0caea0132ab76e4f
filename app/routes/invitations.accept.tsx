import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { refreshSessionTokens } from "~/auth/auth.server";
import { BrandedLayout } from "~/components/branded-layout";
import { ErrorPage } from "~/components/error-page";
import { invitationProblemOf } from "~/features/team/invitations/invitation-problem";
import { acceptInvitation, lookUpInvitation } from "~/platform/invitations.server";
import { requirePlatformClient } from "~/platform/request.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Join an organization · Cloud Console" }];

const MISSING_TOKEN = {
  message:
    "This page needs the link from your invitation. Open the link from the mail or the one you were given.",
  signInAgain: false,
};

/** A visitor not signed in is sent to sign in (or create an account) and comes back here with the token. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, user, headers } = await requirePlatformClient(request);
  const token = new URL(request.url).searchParams.get("token");
  const signedInAs = { name: user.name, email: user.email };
  if (!token) {
    return data(
      { signedInAs, token: "", invitation: null, problem: MISSING_TOKEN },
      { status: 400, headers },
    );
  }
  try {
    const invitation = await lookUpInvitation(api, token);
    return data({ signedInAs, token, invitation, problem: null }, { headers });
  } catch (error) {
    const problem = invitationProblemOf(error);
    return data({ signedInAs, token, invitation: null, problem }, { headers });
  }
}

/**
 * Joins, then refreshes the session's tokens so the ID token's organizations claim holds the new organization,
 * and lands in it: no sign-out needed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { api, session, headers, saveSession } = await requirePlatformClient(request);
  const token = String((await request.formData()).get("token") ?? "");
  let organization;
  try {
    organization = await acceptInvitation(api, token);
  } catch (error) {
    return data({ problem: invitationProblemOf(error) }, { status: 400, headers });
  }
  await refreshSessionTokens(session);
  session.set("organizationId", organization.id);
  session.unset("environment");
  await saveSession();
  return redirectWithToast(
    "/",
    { variant: "success", message: `You joined ${organization.displayName}` },
    { headers },
  );
}

export default function AcceptInvitation() {
  const { signedInAs, token, invitation, problem: loadProblem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const problem = actionData?.problem ?? loadProblem;
  return (
    <BrandedLayout>
      <Stack gap="md">
        <Text size="sm" c="dimmed" data-testid="signed-in-as">
          Signed in as {signedInAs.name} ({signedInAs.email})
        </Text>
        {invitation && !actionData ? (
          <>
            <Title order={2}>Join {invitation.organization.displayName}</Title>
            <Text>
              {invitation.invitedBy ?? "An administrator"} invited you ({invitation.email}) to join{" "}
              <Text span fw={600}>
                {invitation.organization.displayName}
              </Text>
              . The invitation expires on {invitation.expiresAt.slice(0, 10)}.
            </Text>
            <Form method="post">
              <input type="hidden" name="token" value={token} />
              <Button type="submit" loading={navigation.state !== "idle"}>
                Join {invitation.organization.displayName}
              </Button>
            </Form>
          </>
        ) : null}
        {problem ? (
          <>
            <Title order={2}>This invitation cannot be used</Title>
            <Alert color="red" role="alert" data-testid="invitation-problem">
              {problem.message}
            </Alert>
            <Group>
              {problem.signInAgain ? (
                <Form method="post" action="/auth/logout" reloadDocument>
                  <Button type="submit">Sign out</Button>
                </Form>
              ) : null}
              <Button component={Link} to="/" variant="default">
                Go to the console
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </BrandedLayout>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
