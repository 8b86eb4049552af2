/**
 * Whether a class was decorated with tsyringe's @injectable()/@singleton(). tsyringe keeps that
 * registry internally and resolves undecorated classes only by accident (when they take no
 * arguments), so the kernel reads the registry of the pinned tsyringe version directly.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { typeInfo } = require('tsyringe/dist/cjs/dependency-container') as { typeInfo: Map<unknown, unknown> };

export function isInjectable(cls: unknown): boolean {
  return typeInfo.has(cls);
}
