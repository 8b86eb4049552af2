/**
 * The plugins a registry-wide suite runs over: the kernel's fixtures (test/core/, test/fuzz/) or
 * whatever plugins/ holds (test/products/). Suites iterate over what the registry loaded and
 * count nothing, so that adding or deleting a plugin folder needs no edit here.
 */
import { PLUGINS_DIR } from '../../config/paths';
import { FIXTURE_PLUGINS_DIR } from './gateway';

export interface PluginSet {
  /** For test titles: "the fixture plugins", "every plugin in plugins/". */
  label: string;
  pluginDirs: string[];
  /** Only these plugin folders of them (default: all). */
  plugins?: string[];
}

export const FIXTURE_PLUGINS: PluginSet = { label: 'the fixture plugins', pluginDirs: [FIXTURE_PLUGINS_DIR] };
export const PRODUCT_PLUGINS: PluginSet = { label: 'every plugin in plugins/', pluginDirs: [PLUGINS_DIR] };
