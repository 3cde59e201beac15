/** Runs `fn` when the server is told to stop. */
export function onShutdown(fn: () => void): void;

/** Runs every hook; one that throws is logged and the others still run. */
export function runShutdown(): void;
