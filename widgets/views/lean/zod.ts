// Stands in for zod in the views' build (scripts/build-views.mjs). The ext-apps App class builds a
// schema of every message its module knows when it loads, and reads two things back: an object's
// `shape` and a literal's `value` (the method names it listens for). This keeps those and validates
// nothing; a view checks what it reads from a result itself. zod would be most of the weight of a
// view many times over its budget (decisions §22; scripts/build-views.mjs).

const SCHEMA = Symbol('schema');

export interface StandIn {
  readonly [SCHEMA]: true;
  readonly shape?: Record<string, unknown>;
  readonly value?: unknown;
}

/** A schema: every method returns the schema itself, so chains such as `.optional().describe(…)` keep its shape and value. */
function schema(own: { shape?: Record<string, unknown>; value?: unknown } = {}): StandIn {
  const target: Record<PropertyKey, unknown> = { [SCHEMA]: true, ...own };
  const self: StandIn = new Proxy(target, {
    // Not a thenable: a schema is never awaited for the value it stands for.
    get: (t, key) => (key in t ? t[key] : key === 'then' ? undefined : () => self),
  }) as unknown as StandIn;
  return self;
}

export function isSchema(value: unknown): value is StandIn {
  return typeof value === 'object' && value !== null && SCHEMA in value;
}

const builders: Record<PropertyKey, unknown> = {
  config: () => undefined,
  object: (shape: Record<string, unknown>) => schema({ shape }),
  literal: (value: unknown) => schema({ value }),
};

/** `z.object`, `z.literal`, and every other builder (`z.string()`, `z.union(…)`, …) as a schema that keeps nothing. */
export const z = new Proxy(builders, { get: (t, key) => (key in t ? t[key] : () => schema()) }) as unknown as Record<
  string,
  (...args: unknown[]) => StandIn
>;
