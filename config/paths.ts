import path from 'node:path';

// Declared with the plugin contract, where domain modules find it too.
export { PROJECT_ROOT } from '../core/plugins/project-root';
/** Compiled plugin folders: scanned at boot. */
export const PLUGINS_DIR = path.join(__dirname, '..', 'plugins');
