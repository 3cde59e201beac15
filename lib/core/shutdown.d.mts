/** Runs `fn` when the server is told to stop. */
export function onShutdown(fn: () => void): void;

/** Whether the server was told to stop: it drains the answers under way and takes no new work. */
export function stopping(): boolean;

/** Runs every hook; one that throws is logged and the others still run. From then on `stopping()` is true. */
export function runShutdown(): void;
