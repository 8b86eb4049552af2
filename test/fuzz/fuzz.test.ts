/**
 * The fuzz run (fuzz-run.ts) on the kernel's fixture plugins, but the one that fails on purpose
 * (its 5xx answers are what it is made for); test/products/fuzz.test.ts runs it on plugins/.
 */
import { readdirSync } from 'node:fs';
import { FAILING } from '../support/fx-endpoints';
import { FIXTURE_PLUGINS_DIR } from '../support/gateway';
import { describeFuzz } from './fuzz-run';

// A full run's successful broker calls would cost about 3 USD on key 0 and 0.8 USD on each other key.
describeFuzz(
  {
    label: 'the fixture plugins',
    pluginDirs: [FIXTURE_PLUGINS_DIR],
    plugins: readdirSync(FIXTURE_PLUGINS_DIR).filter((folder) => folder !== FAILING.endpointId),
  },
  { trialCredit: 1_500_000, blankRefused: 'typed' },
);
