/**
 * The answer cache changes no byte of any answer of any endpoint in plugins/: every example, on
 * every surface, with and without the cache (the kernel suite, on whatever plugins/ holds).
 */
import { PRODUCT_PLUGINS } from '../support/plugin-sets';
import { describeAnswerCache } from '../core/surfaces/answer-cache-suite';

describeAnswerCache(PRODUCT_PLUGINS);
