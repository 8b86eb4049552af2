/**
 * The gateway's entry point (`main` of main.ts: configuration from the environment, signals, the
 * start-up refusals) on the kernel's fixture plugins instead of plugins/, for tests that run the
 * gateway as a process (test/support/process-gateway.ts, `spawnFixtureGateway`).
 */
import 'reflect-metadata';
import { main } from '../../main';
import { FIXTURE_PLUGINS_DIR } from './gateway';

void main({ pluginDirs: [FIXTURE_PLUGINS_DIR] });
