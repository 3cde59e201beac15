import { z } from 'zod';

// The named response schemas of the OpenAPI document (`#/components/schemas/<id>`). They are kept
// in their own registry rather than as `id` metadata on zod's global one: converters that read the
// global registry (the MCP SDK's) then inline every shape, as MCP clients need, while the OpenAPI
// document still refers to each by name.

export const components = z.registry<{ id: string }>();
