import {
  acceptedInvitationSchema,
  cancelledInvitationSchema,
  invitationListSchema,
  invitationPaths,
  invitationPreviewSchema,
  sentInvitationSchema,
  sentInvitationsSchema,
  type CreateInvitations,
} from "#contract/invitations";
import type { PlatformClient } from "./client.server";

/** The organization's invitations, newest first; one address's only when `email` is given. */
export async function listInvitations(api: PlatformClient, tenantId: string, email?: string) {
  const { invitations } = await api.get(invitationPaths.list(tenantId), invitationListSchema, {
    query: { email },
  });
  return invitations;
}

/** Invites the addresses; each answer says whether its mail went out, else carries the link once. */
export async function sendInvitations(api: PlatformClient, tenantId: string, request: CreateInvitations) {
  const { invitations } = await api.post(invitationPaths.list(tenantId), sentInvitationsSchema, request);
  return invitations;
}

export async function reinvite(api: PlatformClient, tenantId: string, email: string) {
  return api.post(invitationPaths.reinvite(tenantId), sentInvitationSchema, { email });
}

export async function cancelInvitation(api: PlatformClient, tenantId: string, email: string) {
  const { invitation } = await api.delete(invitationPaths.cancel(tenantId, email), cancelledInvitationSchema);
  return invitation;
}

/** The invitation behind a link, for a visitor not signed in yet (`api` carries no token). */
export async function previewInvitation(api: PlatformClient, token: string) {
  return api.post(invitationPaths.preview(), invitationPreviewSchema, { token });
}

export async function lookUpInvitation(api: PlatformClient, token: string) {
  return api.post(invitationPaths.lookup(), invitationPreviewSchema, { token });
}

export async function acceptInvitation(api: PlatformClient, token: string) {
  const { organization } = await api.post(invitationPaths.accept(), acceptedInvitationSchema, { token });
  return organization;
}
