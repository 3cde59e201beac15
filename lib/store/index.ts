import { config } from '../config';
import { openEmbeddedStore } from './embedded';
import type { Store } from './types';

export type { Point, Store } from './types';

// One store per process, opened on first use.
let store: Store | null = null;

export function getStore(): Store {
  store ??= openEmbeddedStore(config.dataDir());
  return store;
}
