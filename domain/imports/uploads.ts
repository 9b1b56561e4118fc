import type { Database } from '../../storage/db.js';
import { findUpload, insertUpload, storeUploadBody, type UploadRecord } from '../../storage/imports.js';
import { alreadyThere, invalidInput, missing } from '../common/errors.js';

/** The largest file an import takes (a zip of a site's pages is a few MB; a 50 MB one is a big manual). */
export const maxUploadBytes = 50 * 1024 * 1024;

/**
 * A place for a file about to be uploaded (generateStorageUploadURL): Quire keeps uploads for
 * imports only, up to maxUploadBytes. The caller sends the bytes to the URL it is given.
 */
export function requestUpload(db: Database, input: { organizationId: string; createdBy: string; kind: string; name: string; contentType: string; size: number }): Promise<UploadRecord> {
  if (input.kind !== 'import_file') throw invalidInput(`"kind": Quire keeps uploads for imports only ("import_file"), not "${input.kind}"`);
  if (input.size > maxUploadBytes) throw invalidInput(`"file.size": an import file is at most ${maxUploadBytes / 1024 / 1024} MB`);
  return insertUpload(db, input);
}

/** The bytes of an upload, sent once, no more than declared. */
export async function receiveUpload(db: Database, organizationId: string, key: string, body: Buffer): Promise<UploadRecord> {
  const upload = await findUpload(db, organizationId, key);
  if (!upload) throw missing(`Upload ${key} not found`);
  if (body.length > upload.size) throw invalidInput(`The file is ${body.length} bytes: the upload was asked for ${upload.size}`);
  if (!(await storeUploadBody(db, key, body))) throw alreadyThere(`Upload ${key} has been sent already: ask for another upload URL`);
  return { ...upload, uploaded: true };
}
