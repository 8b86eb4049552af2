/**
 * Renders docs/configuration.md from the configuration schema (config/env.ts), so the settings
 * documentation cannot drift: a test compares the file with this output.
 *   npm run docs:config        rewrite docs/configuration.md
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeSettings } from '../config/env';
import { PROJECT_ROOT } from '../config/paths';

export const CONFIG_DOC = path.join(PROJECT_ROOT, 'docs', 'configuration.md');

export function renderConfigDoc(): string {
  const rows = describeSettings().map(
    (s) =>
      `| \`${s.name}\` | ${s.description.replace(/\|/g, '\\|')} | ${s.default !== undefined ? `\`${s.default}\`` : 'unset'} |`,
  );
  return [
    '# Configuration',
    '',
    'Every setting is an environment variable, checked at boot: a bad value stops the start with a',
    'message naming the variable, the value and what is accepted. This file is generated from',
    '`config/env.ts` by `npm run docs:config`; a test fails when it is out of date.',
    '',
    '| variable | meaning | default |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (require.main === module) {
  writeFileSync(CONFIG_DOC, renderConfigDoc());
  console.log(`wrote ${path.relative(PROJECT_ROOT, CONFIG_DOC)}`);
}
