import pkg from '../../package.json';

/** The build, as package.json names it (semver). */
export const VERSION: string = pkg.version;

/** The public contract's version, major.minor: what the changelog and the OpenAPI document call "current". */
export const API_VERSION = VERSION.split('.').slice(0, 2).join('.');
