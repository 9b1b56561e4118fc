import type { AppContext } from '../context.js';

/**
 * What a form did, said on the page it comes back to. A form answers 303 to its page with
 * `?done=<key>` (a reload doesn't post it again), and the page looks the key up here: the
 * address carries a key, never text, so no link can make the app say something it didn't.
 */
export const notices = {
  'role-changed': 'Role changed.',
  'member-removed': 'Removed from the organization.',
  'link-created': 'Invite link created.',
  'link-deleted': 'Invite link deleted: it opens nothing now.',
  'team-created': 'Team created.',
  'team-member-added': 'Added to the team.',
  'team-member-removed': 'Removed from the team.',
  'team-deleted': 'Team deleted.',
  'saml-added': 'SAML provider added.',
  'saml-saved': 'SAML provider saved.',
  'saml-deleted': 'SAML provider deleted.',
  published: 'Published.',
  unpublished: 'Unpublished: readers get a 404 now.',
  'settings-saved': 'Settings saved.',
  'share-link-created': 'Share link created.',
  'share-link-active': 'Share link active again.',
  'share-link-inactive': 'Share link deactivated.',
  'share-link-deleted': 'Share link deleted.',
  'space-added': 'Space added to the site.',
  'space-removed': 'Space removed from the site.',
  'section-added': 'Section added.',
  'section-removed': 'Section removed.',
  'look-saved': 'Look saved: readers see it now.',
} as const;

export type Notice = keyof typeof notices;

/** The notice a page's `?done=` names, if it names one. */
export const noticeOf = (ctx: AppContext): string | undefined => {
  const key = ctx.query.done;
  return typeof key === 'string' && Object.hasOwn(notices, key) ? notices[key as Notice] : undefined;
};
