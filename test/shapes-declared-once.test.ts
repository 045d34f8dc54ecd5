import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { z as z4 } from 'zod/v4';
import type { Conversation, Message } from '../src/model/pam.js';
import type { conversationSchema, messageSchema } from '../src/model/pam-conversation.js';
import type { SearchHit as StoreSearchHit } from '../src/api/query.js';
import type { hitOutput, memoryHitOutput } from '../src/mcp/output-schemas.js';
import type {
  ConversationHit,
  SearchHit,
  conversationHitSchema,
  searchHitSchema,
} from '../src/search/search-hit.js';
import type {
  ConversationSearchHit as WebConversationHit,
  SearchHit as WebSearchHit,
} from '../src/web/api-responses.js';
import { ROOT } from './support/shared.js';

// A search hit's field set: an object declaring all of these but one is a declaration of a hit
// (a memory's match row has four, never the platform's conversation id).
const HIT_FIELDS = ['conversationId', 'platformConversationId', 'messageId', 'snippet', 'score'];

// Where a hit's field set may be listed: the one declaration, and the page's reader (objectOf,
// which the compiler holds to the declaration's type). The search child's answer is derived from
// the declaration (omit/extend), so it lists nothing of its own.
const ALLOWED = new Set(['src/search/search-hit.ts', 'src/web/client/answers.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const propertyNames = (members: ts.NodeArray<ts.Node>): string[] =>
  members.flatMap((member) => {
    const name = (member as ts.NamedDeclaration).name;
    return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? [name.text] : [];
  });

// Each place in a file that declares a shape: an interface, a type literal, or the object
// literal given to a schema or reader builder (z.object, object, objectOf, .extend).
function declaredShapes(file: string): { line: number; fields: string[]; call: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: { line: number; fields: string[]; call: string }[] = [];
  const line = (node: ts.Node): number =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node))
      found.push({ line: line(node), fields: propertyNames(node.members), call: 'type' });
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const shape = node.arguments[0];
      if (
        ['object', 'objectOf', 'extend'].includes(name) &&
        shape &&
        ts.isObjectLiteralExpression(shape)
      )
        found.push({ line: line(node), fields: propertyNames(shape.properties), call: name });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('a search hit is declared once', () => {
  it('lists its field set in one schema (and the readers held to it), nowhere else', () => {
    const declarations = sources(join(ROOT, 'src')).flatMap((file) =>
      declaredShapes(file)
        .filter(
          ({ fields }) =>
            fields.includes('platformConversationId') &&
            HIT_FIELDS.filter((f) => fields.includes(f)).length >= 4,
        )
        .map(({ line, call }) => ({ at: `${relative(ROOT, file)}:${String(line)}`, call })),
    );
    const outside = declarations.filter(({ at }) => !ALLOWED.has(at.replace(/:\d+$/, '')));
    expect(outside).toEqual([]);
    // The one schema, and the page's readers only through objectOf (compiler-checked).
    expect(declarations.filter(({ at }) => at.startsWith('src/search/search-hit.ts'))).toHaveLength(
      1,
    );
    for (const { at, call } of declarations.filter(({ at }) => at.startsWith('src/web/client/')))
      expect({ at, call }).toEqual({ at, call: 'objectOf' });
  });

  it('gives the library, the web API and the MCP server the types of that schema', () => {
    expectTypeOf<SearchHit>().toEqualTypeOf<z.infer<typeof searchHitSchema>>();
    expectTypeOf<StoreSearchHit>().toEqualTypeOf<SearchHit>();
    expectTypeOf<WebSearchHit>().toEqualTypeOf<SearchHit>();
    expectTypeOf<WebConversationHit>().toEqualTypeOf<ConversationHit>();
    expectTypeOf<ConversationHit>().toEqualTypeOf<z.infer<typeof conversationHitSchema>>();
    // MCP: the hit's fields, its kind as free text (an agent reads a kind added later).
    expectTypeOf<Omit<z.infer<typeof hitOutput>, 'kind'>>().toEqualTypeOf<
      Omit<SearchHit, 'kind' | 'memory'>
    >();
    expectTypeOf<z.infer<typeof memoryHitOutput>['memory']>().toEqualTypeOf<
      NonNullable<SearchHit['memory']>
    >();
  });
});

describe("PAM's memory types are listed once", () => {
  // The page's list (it loads no module outside the page) is held to the model's by the compiler.
  it("in model/memory-type.ts, and the page's checked copy", () => {
    const listing = sources(join(ROOT, 'src'))
      .filter((file) =>
        /'relationship',\s*'goal',\s*'instruction'/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(ROOT, file))
      .sort();
    expect(listing).toEqual(['src/model/memory-type.ts', 'src/web/client/answers.ts']);
  });
});

// A PAM conversation's field set, and a PAM message's: an object declaring three of either is
// a declaration of it.
const CONVERSATION_FIELDS = ['schema_version', 'provider', 'temporal', 'participants', 'messages'];
const MESSAGE_FIELDS = ['provider_message_id', 'children_ids', 'is_thought', 'tool_calls'];
// The one declaration (the types of model/pam.ts are inferred from it, the bundle reads files
// back with it, a bundle's index repair picks from it, a provider's draft message picks its
// type). Two lenient readers of files other tools wrote stay apart, each a looser contract on
// zod 3 that cannot extend the zod 4 declaration until the code is on one zod major: the PAM
// provider's (what PAM defaults may be missing or null, times in any form PAM allows) and the
// validator's message graph (every field nullish, to report what is wrong rather than refuse).
const PAM_ALLOWED = new Set([
  'src/model/pam-conversation.ts',
  'src/providers/pam/pam-schema.ts',
  'src/validate/deep-conversation.ts',
]);

describe('a PAM conversation is declared once', () => {
  it('lists its field set in one schema (and the lenient reader of other tools), nowhere else', () => {
    const declarations = sources(join(ROOT, 'src')).flatMap((file) =>
      declaredShapes(file)
        .filter(
          ({ fields }) =>
            CONVERSATION_FIELDS.filter((f) => fields.includes(f)).length >= 3 ||
            MESSAGE_FIELDS.filter((f) => fields.includes(f)).length >= 3,
        )
        .map(({ line }) => `${relative(ROOT, file)}:${String(line)}`),
    );
    expect(declarations.filter((at) => !PAM_ALLOWED.has(at.replace(/:\d+$/, '')))).toEqual([]);
    expect(declarations.filter((at) => at.startsWith('src/model/'))).toHaveLength(2);
  });

  it("gives the model's types as the schema's", () => {
    expectTypeOf<Conversation>().toEqualTypeOf<z4.infer<typeof conversationSchema>>();
    expectTypeOf<Message>().toEqualTypeOf<z4.infer<typeof messageSchema>>();
  });
});
