import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import schema from '../../fixtures/mcp-registry-server-detail.schema.json';

// server.json, the MCP registry's description of this server, checked against the registry's schema
// rules (tests/fixtures/SOURCES.md says which) and against the package it describes.

const serverJson = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../server.json'), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);

describe('server.json', () => {
  it('is valid against the registry schema', () => {
    expect(validate(serverJson), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('names the current schema, this package’s version and one streamable-http remote at /mcp', () => {
    expect(serverJson.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(serverJson.version).toBe(pkg.version);
    expect(serverJson.remotes).toHaveLength(1);
    expect(serverJson.remotes[0].type).toBe('streamable-http');
    expect(new URL(serverJson.remotes[0].url).pathname).toBe('/mcp');
    expect(new URL(serverJson.websiteUrl).pathname).toBe('/docs/mcp');
  });

  it('the schema check refuses what the registry refuses', () => {
    for (const bad of [
      { ...serverJson, name: 'no-namespace' },
      { ...serverJson, description: 'x'.repeat(101) },
      { ...serverJson, remotes: [{ type: 'streamable-http' }] },
      { ...serverJson, remotes: [{ type: 'websocket', url: 'wss://gold.example/mcp' }] },
      { name: serverJson.name, description: serverJson.description },
    ]) {
      expect(validate(bad), JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });
});
