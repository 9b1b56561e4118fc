export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** An object's type and its content (without git's `<type> <size>\0` header). */
export interface GitObject {
  type: ObjectType;
  data: Buffer;
}

/** Splits an inflated loose object into its header's type and the content after it. */
export function parseLooseObject(object: Buffer, oid: string): GitObject {
  const headerEnd = object.indexOf(0);
  const [type] = object.subarray(0, headerEnd).toString('latin1').split(' ');
  if (type !== 'commit' && type !== 'tree' && type !== 'blob' && type !== 'tag') throw new Error(`object ${oid} has an unknown type "${type}"`);
  return { type, data: object.subarray(headerEnd + 1) };
}
