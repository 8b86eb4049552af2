/**
 * Rewrites the documents generated from the plugins for sale, so that adding or deleting a plugin
 * folder needs no edit of them: docs/glossary.json and docs/glossary.md (tools/glossary-doc.ts) and
 * docs/endpoints.md (tools/endpoints-doc.ts). Run by `npm run build` after the compiler; tests fail
 * when a file differs from what the loaded plugins describe.
 */
import 'reflect-metadata';
import { writeGlossary, soldManifests } from './glossary-doc';

async function main(): Promise<void> {
  const manifests = soldManifests();
  const changed = await writeGlossary(manifests);
  if (changed)
    console.log('generated documents rewritten from plugins/: docs/glossary.json, docs/glossary.md');
}

if (require.main === module) void main();
