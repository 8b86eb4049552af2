/** Injection tokens for settings the domain's source adapters read. */
export const UPSTREAM_CONFIG = Symbol.for('jp-gateway:upstream-config');
