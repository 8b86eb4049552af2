/**
 * The code samples of the endpoint pages, as a buyer copies them, run against a real gateway on
 * the kernel's fixture plugins, every sample on every fixture (code-samples-suite.ts).
 * test/products/ runs the samples of every endpoint in plugins/.
 */
import { FIXTURE_PLUGINS_DIR } from '../support/gateway';
import { describeCodeSamples } from './code-samples-suite';

describeCodeSamples({
  title: 'code samples of the endpoint pages, run against the gateway',
  pluginDirs: [FIXTURE_PLUGINS_DIR],
  timeoutMs: 240_000,
  slowSamplesOn: 'every',
});
