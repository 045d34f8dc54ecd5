import { describe, expect, it } from 'vitest';
import {
  abridge,
  compactSchema,
  dropNoise,
  inlineRefs,
  shapeName,
  shareShapes,
} from './compact-schema.js';

const hit = {
  type: 'object',
  properties: { id: { type: 'string' }, snippet: { type: 'string' } },
  required: ['id', 'snippet'],
};

describe('compact tool schemas', () => {
  it('inlines refs to a path of the document, siblings kept', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { $ref: '#/properties/a', description: 'the same' },
      },
    };
    expect(inlineRefs(schema)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string', description: 'the same' } },
    });
  });

  it('drops $schema and closed objects, and writes a nullable as a type list', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
      additionalProperties: false,
    };
    expect(dropNoise(schema)).toEqual({
      type: 'object',
      properties: { n: { type: ['integer', 'null'] } },
    });
  });

  it('describes a repeated shape once, by its name, and still says the same', () => {
    const schema = {
      type: 'object',
      properties: {
        hits: { type: 'array', items: hit },
        nearest: { type: 'array', items: { ...hit, description: 'nearest' } },
      },
    };
    const shared = shareShapes(schema, new Map([[shapeName(hit), 'hit']]));
    expect(shared).toEqual({
      type: 'object',
      properties: {
        hits: { type: 'array', items: { $ref: '#/$defs/hit' } },
        nearest: { type: 'array', items: { $ref: '#/$defs/hit', description: 'nearest' } },
      },
      $defs: { hit },
    });
    expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(schema).length);
  });

  it('leaves a shape seen once where it is', () => {
    const schema = { type: 'object', properties: { one: hit } };
    expect(shareShapes(schema)).toEqual(schema);
  });

  it('abridges a known shape to the fields it names, wherever it is', () => {
    const short = {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    };
    const schema = { type: 'object', properties: { hits: { type: 'array', items: hit } } };
    expect(abridge(schema, new Map([[shapeName(hit), short]]))).toEqual({
      type: 'object',
      properties: { hits: { type: 'array', items: short } },
    });
  });

  it("drops an output schema's required lists, keeping a property named required", () => {
    const schema = {
      type: 'object',
      properties: { hits: { type: 'array', items: hit }, required: { type: 'boolean' } },
      required: ['hits', 'required'],
    };
    expect(compactSchema(schema, true)).toEqual({
      type: 'object',
      properties: {
        hits: { type: 'array', items: { type: 'object', properties: hit.properties } },
        required: { type: 'boolean' },
      },
    });
    // An input schema keeps them: they say what a caller must give.
    expect(compactSchema(schema, false)).toEqual(schema);
  });
});
