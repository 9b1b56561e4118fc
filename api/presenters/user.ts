import type { UserRecord } from '../../storage/users.js';
import type { Urls } from '../urls.js';

export function presentUser(user: UserRecord, urls: Urls) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: urls.user(user.id) },
  };
}
