import type { MemberRecord } from '../../storage/members.js';
import type { Urls } from '../urls.js';
import { presentUser } from './user.js';

export function presentMember(member: MemberRecord, urls: Urls) {
  return {
    object: 'member' as const,
    id: member.user.id,
    role: member.role,
    user: presentUser(member.user, urls),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt } : {}),
    sso: member.sso,
    spaces: member.spaces,
    teams: member.teams,
  };
}
