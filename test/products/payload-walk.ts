/**
 * The product-wide walk over every example payload of every sold plugin (test/products/
 * every-payload.test.ts), and what it asks of each: the reference-data notice, an attribution, a
 * provenance naming at least one official publisher's document by URL (a host of the shared list
 * in domain/shared/official-hosts.ts, or one the plugin declares in its manifest's `publishers`),
 * a manifest source URL on such a host, and no path of this repository or of ../shared in any string.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import type { RegisteredPlugin } from '../../core/plugins/registry';
import { isOfficialUrl } from '../../domain/shared/official-hosts';
import { callExample, type UnsignedSurface } from '../support/example-calls';
import type { TestGateway } from '../support/gateway';
import { SHARED_DATA } from '../support/shared-data';

/** Words that only ever come from our own notes. */
export const OWN_NOTES = /team (research|reference)|shared\/reference|research notes/i;

/** The folder holding ../shared, also for a clean clone elsewhere (test/support/shared-data.ts). */
const SHARED_PARENT = path.resolve(SHARED_DATA, '..', '..');

/** Tokens of a string that name a file or folder of this repository or of ../shared. */
export function repositoryPaths(text: string): string[] {
  if (/^https?:\/\//.test(text)) return [];
  return text
    .split(/[\s"'`()[\]{},;:<>]+/)
    .map((t) => t.replace(/[.。、]+$/, ''))
    .filter((t) => /^[\w.-]+\/[\w./-]+$/.test(t))
    .filter((t) =>
      [PROJECT_ROOT, path.join(PROJECT_ROOT, '..'), SHARED_PARENT].some((d) => existsSync(path.join(d, t))),
    );
}

export function strings(value: unknown, at = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  }
  return [];
}

/** The hosts a plugin declares for the publishers its sources cite beyond the shared list. */
export function declaredHosts(plugin: RegisteredPlugin): string[] {
  return (plugin.manifest.publishers ?? []).map((p) => p.host);
}

/** The manifest's own source URL, when it gives one, is an official publisher's. */
export function manifestSourceProblems(plugin: RegisteredPlugin): string[] {
  const url = plugin.manifest.source.url;
  if (url === undefined || isOfficialUrl(url, declaredHosts(plugin))) return [];
  return [`${plugin.endpointId}: source.url ${url} is not on an official publisher's host`];
}

/** What is wrong with the answers of one plugin's examples on one surface (none: []). */
export async function payloadProblems(
  gw: TestGateway,
  surface: UnsignedSurface,
  plugin: RegisteredPlugin,
  credentials: { marketplaceSecret: string; apiKey: string },
): Promise<string[]> {
  const problems: string[] = [];
  for (const ex of plugin.manifest.examples) {
    const { res, qs } = await callExample(gw, surface, plugin, ex, credentials);
    const where = `${plugin.endpointId} ${qs}`;
    if (res.status !== 200) {
      problems.push(`${where}: ${res.status} ${res.text.slice(0, 300)}`);
      continue;
    }
    const b = res.body;
    if (b._notice !== plugin.product.notice) problems.push(`${where}: _notice missing`);
    if (typeof b._attribution !== 'string' || b._attribution.length < 10)
      problems.push(`${where}: _attribution missing`);
    const official = (b._provenance?.sources ?? []).filter((s: { url?: string }) =>
      isOfficialUrl(s.url, declaredHosts(plugin)),
    );
    if (official.length === 0) problems.push(`${where}: no official source URL in _provenance.sources`);
    for (const [at, text] of strings(b)) {
      if (OWN_NOTES.test(text)) problems.push(`${where} ${at}: cites our own notes: ${text.slice(0, 120)}`);
      for (const hit of repositoryPaths(text)) problems.push(`${where} ${at}: names ${hit}`);
    }
  }
  return problems;
}
