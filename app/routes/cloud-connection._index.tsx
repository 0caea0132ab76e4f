import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { usableOrganizations } from "~/features/organizations/current-organization";
import { CloudConnectionTool } from "~/features/terraform/cloud-connection-tool";
import { connectAwsAccount } from "~/features/terraform/connect-action.server";
import { requirePlatformClient } from "~/platform/request.server";

export const meta: MetaFunction = () => [{ title: "Connect your AWS account · Cloud Console" }];

/** SPEC §2.3: the AWS connect page; a user without an organization may use it too. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { headers, organizations } = await requirePlatformClient(request);
  const hasOrganization = usableOrganizations(organizations).length > 0;
  return data(
    {
      // 'Start for free' leads to a create page: the first organization, or an environment in one.
      startForFreeHref: hasOrganization ? "/environments/create" : "/organizations/create",
      year: new Date().getFullYear(),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  return connectAwsAccount(request, await requirePlatformClient(request));
}

export default function ConnectAwsAccount() {
  const { startForFreeHref, year } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <CloudConnectionTool
      actionData={actionData}
      startForFreeHref={startForFreeHref}
      year={year}
      framed={false}
    />
  );
}
