import type { Dialect } from '../query-conditions.js';

/** Filters in SQLite: `@name` parameters, 1 for true, LIKE for a title (ASCII case-insensitive). */
export const SQL: Dialect = {
  param: (name) => `@${name}`,
  true: '1',
  titleContains: {
    condition: `c.name LIKE @title ESCAPE '\\'`,
    value: (title) => `%${title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
  },
  projectContains: `c.id IN (SELECT s.dst FROM "HAS_SESSION" s JOIN "Project" p ON p.id = s.src WHERE p.name LIKE @project ESCAPE '\\' OR p.path LIKE @project ESCAPE '\\' OR p.project_id LIKE @project ESCAPE '\\')`,
  lower: (expression) => `lower(${expression})`,
};
