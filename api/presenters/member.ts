import type { MemberRecord } from '../../storage/members.js';
import type { Urls } from '../urls.js';
import { presentUser } from './user.js';

/** `spaces`: how many spaces the member reaches (see commands/access). */
export function presentMember(member: MemberRecord, spaces: number, urls: Urls) {
  return {
    object: 'member' as const,
    id: member.user.id,
    role: member.role,
    user: presentUser(member.user, urls),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt } : {}),
    sso: member.sso,
    spaces,
    teams: member.teams,
  };
}
