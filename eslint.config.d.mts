/** The layout of lib/: each folder and the lib/ folders it may import (eslint.config.mjs). */
export declare const LIB_LAYERS: Record<string, string[]>;
declare const config: unknown[];
export default config;
