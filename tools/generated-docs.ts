/**
 * Rewrites the documents generated from the plugins for sale, so that adding or deleting a plugin
 * folder needs no edit of them: docs/glossary.json and docs/glossary.md (tools/glossary-doc.ts) and
 * docs/endpoints.md (tools/endpoints-doc.ts). Run by `npm run build` after the compiler; tests fail
 * when a file differs from what the loaded plugins describe.
 */
import 'reflect-metadata';
import { writeEndpointsDoc } from './endpoints-doc';
import { soldManifests, writeGlossary } from './glossary-doc';

async function main(): Promise<void> {
  const manifests = soldManifests();
  const written = [
    ...((await writeGlossary(manifests)) ? ['docs/glossary.json', 'docs/glossary.md'] : []),
    ...(writeEndpointsDoc(manifests) ? ['docs/endpoints.md'] : []),
  ];
  if (written.length > 0) console.log(`rewritten from plugins/: ${written.join(', ')}`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    // A plugin whose manifest cannot be loaded stops the build, as it would stop the gateway.
    console.error(`generated documents not written: ${(err as Error).message.split('\n')[0]}`);
    process.exitCode = 1;
  });
}
