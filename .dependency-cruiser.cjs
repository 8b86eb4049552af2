/**
 * The layer rules of docs/architecture.md ("Layers and the imports they allow"), checked by
 * `npm run lint` (dependency-cruiser). Type-only imports count: a layer that names a type of the
 * layer above it depends on it as much as one that calls it.
 *
 * Inside core/, each folder lists the folders it may import; everything else in core/ is refused.
 * Bottom first:
 */
const KERNEL = {
  // The foundation: the kernel's settings and small utilities. They import nothing from core/.
  'core/util': [],
  'core/config.ts': [],
  // Request utilities every kernel folder may use: a leaf above the foundation.
  'core/http': ['core/util', 'core/config.ts'],
  // The plugin contract (what domain/ and plugins/ may use) and the registry.
  'core/plugins': ['core/http', 'core/util', 'core/config.ts'],
  // The features. Each declares the repository interface it keeps its state in.
  'core/ratelimit': ['core/plugins', 'core/http', 'core/util', 'core/config.ts'],
  'core/payments': ['core/plugins', 'core/http', 'core/util', 'core/config.ts'],
  'core/feedback': ['core/ratelimit', 'core/plugins', 'core/http', 'core/util', 'core/config.ts'],
  'core/keys': ['core/ratelimit', 'core/plugins', 'core/http', 'core/util', 'core/config.ts'],
  'core/watches': ['core/keys', 'core/ratelimit', 'core/plugins', 'core/http', 'core/util', 'core/config.ts'],
  // The engines: SQLite and MongoDB implementations of the features' repositories.
  'core/store': [
    'core/watches',
    'core/keys',
    'core/feedback',
    'core/payments',
    'core/ratelimit',
    'core/plugins',
    'core/http',
    'core/util',
    'core/config.ts',
  ],
  // The MCP surface's parts (tools, the SDK server, results, _meta keys).
  'core/mcp': [
    'core/store',
    'core/watches',
    'core/keys',
    'core/feedback',
    'core/payments',
    'core/ratelimit',
    'core/plugins',
    'core/http',
    'core/util',
    'core/config.ts',
  ],
  // The surfaces: preview, x402, marketplace, broker, MCP.
  'core/surfaces': [
    'core/mcp',
    'core/store',
    'core/watches',
    'core/keys',
    'core/feedback',
    'core/payments',
    'core/ratelimit',
    'core/plugins',
    'core/http',
    'core/util',
    'core/config.ts',
  ],
  // The documents that describe all of the above (openapi.json, well-known, llms.txt, portal).
  'core/discovery': [
    'core/surfaces',
    'core/mcp',
    'core/store',
    'core/watches',
    'core/keys',
    'core/feedback',
    'core/payments',
    'core/ratelimit',
    'core/plugins',
    'core/http',
    'core/util',
    'core/config.ts',
  ],
  // The composition root: may import every kernel folder.
  'core/gateway': null,
};

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A kernel folder or file, as a path pattern. */
const at = (name) => (name.endsWith('.ts') ? `^${esc(name)}$` : `^${esc(name)}/`);

const kernelRules = Object.entries(KERNEL)
  .filter(([, allowed]) => allowed !== null)
  .map(([name, allowed]) => ({
    name: `layer:${name}`,
    comment: allowed.length
      ? `${name} may import from core/ only ${allowed.join(', ')} (docs/architecture.md, "Layers")`
      : `${name} imports nothing from core/ (docs/architecture.md, "Layers")`,
    severity: 'error',
    from: { path: at(name) },
    to: { path: '^core/', pathNot: [at(name), ...allowed.map(at)] },
  }));

/** Production code: everything but the tests (and the plugins' own test files). */
const TESTS = ['^test/', '\\.test\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, between files of one folder or of several (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...kernelRules,
    {
      name: 'kernel-knows-no-product',
      comment:
        'core/ knows nothing about Japan: it never imports domain/, plugins/, config/, tools/, bench/ or main.ts.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(domain|plugins|config|tools|bench)/|^main\\.ts$' },
    },
    {
      name: 'domain-uses-only-the-contract',
      comment:
        'domain/ imports from the kernel only the plugin contract (core/plugins/), and never config/, a store engine, plugins/ or tools/: what it needs arrives through the contract.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(core/(?!plugins/)|config/|plugins/|tools/|bench/|main\\.ts$)' },
    },
    {
      name: 'plugin-uses-domain-and-contract',
      comment:
        'A plugin imports domain/ and the plugin contract (core/plugins/) only; its tests may also use test/ and tools/.',
      severity: 'error',
      from: { path: '^plugins/', pathNot: TESTS },
      to: { path: '^(core/(?!plugins/)|config/|tools/|bench/|test/|main\\.ts$)' },
    },
    {
      name: 'plugin-not-another-plugin',
      comment: 'A plugin folder never imports another: deleting one leaves the others whole.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
    },
    {
      name: 'config-below-the-programs',
      comment:
        "config/ fills in the kernel's settings types; it never imports plugins/, tools/, bench/, the composition root or main.ts.",
      severity: 'error',
      from: { path: '^config/' },
      to: { path: '^(plugins/|tools/|bench/|core/gateway/|main\\.ts$)' },
    },
    {
      name: 'composition-root-imported-by-programs-only',
      comment: 'core/gateway/ (the composition root) is imported only by main.ts, bench/ and the tests.',
      severity: 'error',
      from: { path: '^(core/(?!gateway/)|domain/|plugins/|config/|tools/)' },
      to: { path: '^core/gateway/' },
    },
    {
      name: 'tests-stay-out-of-production',
      comment: 'Nothing outside the tests (and bench/) imports test/.',
      severity: 'error',
      from: { path: '^(core|domain|config|tools|plugins)/|^main\\.ts$', pathNot: TESTS },
      to: { path: '^test/' },
    },
    {
      name: 'bench-stays-apart',
      comment: 'bench/ is a program of its own: only bench/ and the tests import it.',
      severity: 'error',
      from: { path: '^(core|domain|config|tools|plugins)/|^main\\.ts$' },
      to: { path: '^bench/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|coverage|var)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
