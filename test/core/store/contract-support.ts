/** Opens a fresh repository (and its store) for one test, and closes it after. */
export type Opener<R> = () => Promise<{ repo: R; close: () => Promise<void> }>;

/** Registers the open/close around each test of a contract; call the result inside a test. */
export function withRepo<R>(open: Opener<R>): () => R {
  let repo: R;
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ repo, close } = await open());
  });
  afterEach(() => close());
  return () => repo;
}
