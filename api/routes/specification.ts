import { readFileSync } from 'node:fs';
import { specPath, type Route } from './table.js';

/** One operation of the specification Quire implements: the GitBook API v1 of @gitbook/api@0.146.0. */
export interface SpecifiedOperation {
  method: string;
  path: string;
  area: string;
  operationId: string;
}

export const specifiedOperations: SpecifiedOperation[] = JSON.parse(readFileSync(new URL('./specifiedOperations.json', import.meta.url), 'utf8'));

/** `GET /v1/spaces/{}`: a method and path with placeholder names left out. */
const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\/+$/, '').replace(/\{[^}]+\}/g, '{}')}`;

/** The specified operations no route serves yet. */
export function unroutedOperations(routes: Route[]): SpecifiedOperation[] {
  const routed = new Set(routes.map((route) => shape(route.method, specPath(route.path))));
  return specifiedOperations.filter((op) => !routed.has(shape(op.method, op.path)));
}
