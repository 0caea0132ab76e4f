import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CloudConnectionTool } from "~/features/terraform/cloud-connection-tool";
import { connectAwsAccount } from "~/features/terraform/connect-action.server";
import { requirePlatformClient } from "~/platform/request.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

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
