/**
 * The gateway through its entry point (`main` of main.ts), as `npm start` runs it, so that
 * WORKERS starts a cluster; the kernel's fixture plugins beside plugins/ as in servers/gateway.ts.
 * It announces itself with the gateway's own listening line (a JSON log line with `url`, and with
 * `workers` when there are several).
 */
import 'reflect-metadata';
import { PLUGINS_DIR } from '../../config/paths';
import { main } from '../../main';
import { FIXTURE_PLUGINS_DIR } from '../lib/endpoint';

void main({ pluginDirs: [PLUGINS_DIR, FIXTURE_PLUGINS_DIR] });
