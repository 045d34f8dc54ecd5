import { novelProject } from './claude-novel-project.js';

/** What Claude.ai remembers about the user, as its memories.json holds it. */
export const claudeMemories = {
  conversations_memory: `Sam is a backend developer (Python, PostgreSQL, some TypeScript) who moved from Lyon to Bristol for work. Lives with a Portuguese partner; learning German for work and keeps up French. Runs three times a week and did a first half marathon in autumn 2025. Vegetarian lunches, cooks a lot at home. Writing a short novel set in a Cornish lighthouse in 1962. Prefers direct answers with the numbers worked out, and code that can be run as is.`,
  project_memories: {
    [novelProject.uuid]:
      'Edwin is the point-of-view character; chapters open with a weather log line; Sam wants honest, line-level feedback and dislikes suggestions that change the voice.',
  },
};
