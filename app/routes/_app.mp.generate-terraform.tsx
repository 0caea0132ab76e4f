import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CloudConnectionTool } from "~/features/terraform/cloud-connection-tool";
import { connectAwsAccount } from "~/features/terraform/connect-action.server";
import { requirePlatformClient } from "~/platform/request.server";

export const meta: MetaFunction = () => [{ title: "Generate Terraform · Cloud Console" }];

/** SPEC §2.2 /mp/generate-terraform: the AWS connect page and generation card inside the app shell. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { headers } = await requirePlatformClient(request);
  return data({ startForFreeHref: "/environments/create", year: new Date().getFullYear() }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  return connectAwsAccount(request, await requirePlatformClient(request));
}

export default function GenerateTerraform() {
  const { startForFreeHref, year } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <CloudConnectionTool actionData={actionData} startForFreeHref={startForFreeHref} year={year} framed />
  );
}
