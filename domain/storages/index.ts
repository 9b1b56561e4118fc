/** Storage nodes: which node keeps which spaces' repositories. */
export * from './storageNode.js';
export * from './placement.js';
export * from './spaceMove.js';
