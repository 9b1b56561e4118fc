/** The ids a swept route's path is filled with; any other parameter gets a made-up id. */
export interface PathIds {
  organizationId: string;
  spaceId: string;
  revisionId: string;
  collectionId: string;
}

/** A route's path (`/spaces/:spaceId/...`) made concrete with a fixture's ids, under `/v1`. */
export function concretePath(path: string, ids: PathIds): string {
  return (
    '/v1' +
    path
      .replace(':organizationId', ids.organizationId)
      .replace(':spaceId', ids.spaceId)
      .replace(':revisionId', ids.revisionId)
      .replace(':collectionId', ids.collectionId)
      .replace(/[:*][A-Za-z]+/g, 'someId')
      .replace(/\/$/, '')
  );
}
