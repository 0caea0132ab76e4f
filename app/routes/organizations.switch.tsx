import { Button, Group, Stack, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { getEnv } from "~/env.server";
import { forgetPermissions } from "~/features/permissions/permissions.server";
import { usableOrganizations } from "~/features/organizations/current-organization";
import { requireOrganizationClient, requirePlatformClient } from "~/platform/request.server";

export const meta: MetaFunction = () => [{ title: "Switch organization · Cloud Console" }];

/** The switch dialog as a page (SPEC §2.6 items), for the user menu without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { organization, memberships, headers } = await requireOrganizationClient(request);
  return data(
    {
      currentId: organization.id,
      organizations: memberships
        .map(({ id, displayName }) => ({ id, displayName }))
        .sort((a, b) => a.displayName.localeCompare(b.displayName)),
    },
    { headers },
  );
}

/** SPEC §9: the previous-domain cookie lives 7 days. */
const PREVIOUS_DOMAIN_MAX_AGE = 7 * 24 * 60 * 60;

/**
 * Switches the current organization: locally (the session remembers it), or, with APP_BASE_DOMAIN configured,
 * by moving to the organization's subdomain while a cookie records the domain the user came from.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { session, user, organizations, headers, saveSession } = await requirePlatformClient(request);
  const organizationId = String((await request.formData()).get("organizationId") ?? "");
  const target = usableOrganizations(organizations).find(
    (organization) => organization.id === organizationId,
  );
  if (!target) {
    return data({ message: "You are not a member of this organization." }, { status: 400, headers });
  }
  session.set("organizationId", target.id);
  session.unset("environment");
  await saveSession();
  forgetPermissions(user.sub);

  const { baseDomain, production } = getEnv();
  if (!baseDomain) return redirect("/", { headers });
  const current = new URL(request.url);
  const destination = new URL(`${current.protocol}//${target.name}.${baseDomain}/`);
  destination.port = current.port;
  destination.searchParams.set("switchOrg", target.id);
  const secure = production ? "; Secure" : "";
  headers.append(
    "Set-Cookie",
    `previous-domain=${encodeURIComponent(current.host)}; Domain=.${baseDomain}; Path=/; Max-Age=${PREVIOUS_DOMAIN_MAX_AGE}; SameSite=Lax${secure}`,
  );
  return redirect(destination.toString(), { headers });
}

export default function SwitchOrganizationPage() {
  const { currentId, organizations } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <Title order={2}>Switch organization</Title>
      <Stack gap="xs">
        {organizations.map((organization) => (
          <Form key={organization.id} method="post">
            <input type="hidden" name="organizationId" value={organization.id} />
            <Button
              type="submit"
              fullWidth
              justify="flex-start"
              variant={organization.id === currentId ? "light" : "default"}
              disabled={organization.id === currentId}
            >
              {organization.displayName}
            </Button>
          </Form>
        ))}
      </Stack>
      <Group justify="flex-end">
        <Button component={Link} to="/" variant="subtle">
          Close
        </Button>
      </Group>
    </Stack>
  );
}
