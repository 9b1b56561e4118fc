/** Comments and replies on pages of a space or a change request. */
export * from './commentBodies.js';
export * from './commentPlaces.js';
export * from './comments.js';
export * from './commentViews.js';
