import { Alert, Button, Group, Stack, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { InvitationPreview } from "#contract/invitations";
import { isSignedIn, refreshSessionTokens, signInPath } from "~/auth/auth.server";
import { BrandedLayout } from "~/components/branded-layout";
import { ErrorPage } from "~/components/error-page";
import { invitationProblemOf } from "~/features/team/invitations/invitation-problem";
import { acceptInvitation, lookUpInvitation, previewInvitation } from "~/platform/invitations.server";
import { anonymousPlatformClient, requirePlatformClient } from "~/platform/request.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Join an organization · Cloud Console" }];

const MISSING_TOKEN = {
  message:
    "This page needs the link from your invitation. Open the link from the mail or the one you were given.",
  signInAgain: false,
};

/**
 * A visitor not signed in sees the invitation first and signs in or up as the invited address (filled in on the
 * identity provider's screen), coming back here with the token to join.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await isSignedIn(request))) return visitorView(request);
  const { api, user, headers } = await requirePlatformClient(request);
  const token = new URL(request.url).searchParams.get("token");
  const signedInAs = { name: user.name, email: user.email };
  if (!token) {
    return data(
      { signedInAs, token: "", invitation: null, problem: MISSING_TOKEN, join: null },
      { status: 400, headers },
    );
  }
  try {
    const invitation = await lookUpInvitation(api, token);
    return data({ signedInAs, token, invitation, problem: null, join: null }, { headers });
  } catch (error) {
    const problem = invitationProblemOf(error);
    return data({ signedInAs, token, invitation: null, problem, join: null }, { headers });
  }
}

async function visitorView(request: Request) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const here = `${url.pathname}${url.search}`;
  const visitor = { signedInAs: null, token: token ?? "" };
  if (!token)
    return data({ ...visitor, invitation: null, problem: MISSING_TOKEN, join: null }, { status: 400 });
  try {
    const invitation = await previewInvitation(anonymousPlatformClient(), token);
    const join = {
      signUpHref: signInPath(here, { screen: "signup", email: invitation.email }),
      signInHref: signInPath(here, { email: invitation.email }),
    };
    return data({ ...visitor, invitation, problem: null, join });
  } catch (error) {
    return data({ ...visitor, invitation: null, problem: invitationProblemOf(error), join: null });
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
  const { signedInAs, token, invitation, problem: loadProblem, join } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const problem = actionData?.problem ?? loadProblem;
  return (
    <BrandedLayout>
      <Stack gap="md">
        {signedInAs ? (
          <Text size="sm" c="dimmed" data-testid="signed-in-as">
            Signed in as {signedInAs.name} ({signedInAs.email})
          </Text>
        ) : null}
        {invitation && !actionData ? (
          <>
            <Title order={2}>Join {invitation.organization.displayName}</Title>
            <InvitationSummary invitation={invitation} />
            {join ? (
              <>
                <Text>
                  Create an account or sign in as {invitation.email} to accept it; you come back here to join.
                </Text>
                <Group>
                  <Button component="a" href={join.signUpHref}>
                    Create an account
                  </Button>
                  <Button component="a" href={join.signInHref} variant="default">
                    Sign in
                  </Button>
                </Group>
              </>
            ) : (
              <Form method="post">
                <input type="hidden" name="token" value={token} />
                <Button type="submit" loading={navigation.state !== "idle"}>
                  Join {invitation.organization.displayName}
                </Button>
              </Form>
            )}
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

/** Who invites which address to what, as which role, until when. */
function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  const roles = invitation.roles.length ? ` as ${invitation.roles.join(" and ")}` : "";
  return (
    <Text data-testid="invitation-summary">
      {invitation.invitedBy ?? "An administrator"} invited you ({invitation.email}) to join{" "}
      <Text span fw={600}>
        {invitation.organization.displayName}
      </Text>
      {roles}. The invitation expires on {invitation.expiresAt.slice(0, 10)}.
    </Text>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
